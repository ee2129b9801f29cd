# Keeps the kernel entries of a suite YAML whose `impl:` is listed in `keep` (or, with
# drop=1, is not), and every line outside the entries: the e2e tests' share of a suite.
#   awk -v list=" a.cu b.cu " [-v drop=1] -f suite_entries.awk SUITE.yaml
function flush() {
  if (entry != "" && match(entry, /impl: [^ \n]*/)) {
    impl = substr(entry, RSTART + 6, RLENGTH - 6)
    listed = index(list, " " impl " ") > 0
    if (listed != (drop == 1)) out = out entry
  }
  entry = ""
}
/^  - name:/ { flush() }
/^  / { entry = entry $0 "\n"; next }
{ head = head $0 "\n" }
END { flush(); printf "%s%s", head, out }
