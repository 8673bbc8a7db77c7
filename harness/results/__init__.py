"""The results format, with one owner: the records (`records`), their files (`store`) and the
manifest's schema (`manifest`). The sweep writes through here, the plots and the tests read through
here."""
