"""E-mail (.eml, .msg, .mbox): a header block and the body, attachments read as children like archive members."""
