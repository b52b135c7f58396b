"""``bezsim learn``: training data for the learned policy from search's values of its own
decisions (generate.py, with the recording seat in bezsim/policies/learned/record.py), the fit
of its weights (fit.py, scipy) and the rounds of expert iteration (run.py). Only this package
imports scipy; playing learned needs none of it."""
