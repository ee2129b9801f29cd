# `kcontract check` discharges the precondition's satisfiability first and refuses a vacuous
# contract (every kernel would pass it): a located error and exit 2, no case runs.
kc check data/vacuous.kcontract --impl ../../examples/softmax/softmax.c
