"""Archives (zip, tar, 7z, compressed streams): listing, reading and extracting members under bomb guards."""
