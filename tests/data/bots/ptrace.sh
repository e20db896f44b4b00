read -r line
exec perl -e 'syscall(101, 0, 0, 0, 0); print "survived\n"'
