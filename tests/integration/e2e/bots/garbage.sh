# Answers every request with a line that is no operation at all.
while IFS= read -r line; do
	[ "$line" = end ] && echo "hello referee, 42"
done
