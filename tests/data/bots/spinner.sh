exec perl -Mthreads -e '
$| = 1;
my $t;
while (<STDIN>) {
	$t = threads->create(sub { 1 while 1 }) unless $t;
	my ($u, $s) = times;
	printf "%d\n", ($u + $s) * 1000;
}'
