import os

class WriteFailed(OSError): ...

def write_atomically(
    path: str | os.PathLike[str], content: str | bytes, encoding: str = "utf-8"
) -> None: ...
