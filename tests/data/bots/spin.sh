exec perl -e '
$| = 1;
sub cpu { my ($u, $s) = times; return $u + $s }
while (my $ms = <STDIN>) {
	my $t0 = cpu();
	1 while cpu() - $t0 < $ms / 1000;
	print "spun $ms";
}'
