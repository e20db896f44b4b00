(while :; do sleep 1; done) &
while read -r line; do
	echo ok
done
