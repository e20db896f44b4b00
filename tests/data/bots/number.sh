while read -r line; do
	echo "$1"
done
