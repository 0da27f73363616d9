"""Reading a rule file into a frozen :class:`~solver.ruleset.reader.RuleSet`."""
