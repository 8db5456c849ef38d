#!/usr/bin/python3
"""Builds the same message with Python's email package and writes it to a file."""
import sys
from email import policy
from email.message import EmailMessage

attachment, output = sys.argv[1], sys.argv[2]
message = EmailMessage(policy=policy.SMTP)
message["From"] = "Kim Minsu <kim@example.com>"
message["To"] = "park@example.com"
message["Subject"] = "Q4 numbers"
message.set_content("The numbers are attached.\n")
with open(attachment, "rb") as f:
    message.add_attachment(f.read(), maintype="application", subtype="octet-stream", filename="big.bin")
with open(output, "wb") as f:
    f.write(message.as_bytes())
