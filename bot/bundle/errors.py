"""The one error a bundle read can raise: a single line naming the file and what is wrong."""


class BundleError(Exception):
    pass
