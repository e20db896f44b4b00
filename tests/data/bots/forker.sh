exec perl -e '$| = 1; while (<STDIN>) { my $p = fork; if (!defined $p) { print "refused\n"; next } if ($p == 0) { sleep 1 while 1 } print "forked\n" }'
