exec perl -e '$| = 1; while (my $ms = <STDIN>) { select(undef, undef, undef, $ms / 1000); print "slept $ms" }'
