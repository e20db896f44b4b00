read -r line
echo first
exit 3
