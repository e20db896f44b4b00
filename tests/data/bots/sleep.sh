read -r line
sleep 10
echo late
