"""Start positions where users meet them: which families hold one, a list
compared with a family, engine-testing books."""
