# Answers 1 to every request after writing a file in its folder: the
# file must stay inside its own game's sandbox.
while read -r line; do
	echo scribbled > scribble.txt
	echo 1
done
