# Dies of a segmentation fault on its first call.
IFS= read -r line
kill -SEGV $$
