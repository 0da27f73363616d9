"""The rule kinds: every kind of placement rule a rule file may declare."""
