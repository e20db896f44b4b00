exec perl -e 'while (<STDIN>) { $s = "x" x 41943040; print "big\n"; $| = 1 }'
