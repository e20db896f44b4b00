while read -r line; do
	read -r n < n.txt
	echo "$n"
done
