read -r line
exec sleep 10
