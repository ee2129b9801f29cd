# `kcontract explain ID`: one class with its rationale, source, calibration and incidents.
kc explain std.exc.nan-propagation
kc explain std.no.such-class
