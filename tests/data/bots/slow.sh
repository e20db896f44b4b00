while read -r line; do
	sleep 0.08
	echo 1
done
