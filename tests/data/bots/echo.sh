while read -r line; do
	echo "ok $line"
done
