while read -r line; do
	printf '\001\002 garbage ### %s\n' "$line"
done
