# The README's main job: every example kernel against its contract on the host. The correct
# kernels PASS; each buggy one FAILs with the signature its contract names (--expect: exit 0).
kc check ../../examples/suite.yaml --expect | sed -n '/^kernel /,$p'
