"""The set of use cases the edge serves, built by the composition root."""

from dataclasses import dataclass

from agora.services.accounts import AccountService
from agora.services.client_errors import ClientErrorService


@dataclass(frozen=True)
class Services:
    accounts: AccountService
    client_errors: ClientErrorService
