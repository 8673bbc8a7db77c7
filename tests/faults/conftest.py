"""The fault suite runs on the same real stack as the integration tests."""
from tests.integration.conftest import db, stack  # noqa: F401  (fixtures shared with the integration tests)
