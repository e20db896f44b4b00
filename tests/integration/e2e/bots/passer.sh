# Answers every request with a pass.
while IFS= read -r line; do
	[ "$line" = end ] && echo pass
done
