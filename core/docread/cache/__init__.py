"""What docread remembers between reads: the disk result cache and the read log behind "unchanged" stubs."""
