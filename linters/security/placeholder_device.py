"""A disk named by a placeholder the reader fills in (SF505's softer reading).

A cheat sheet or a flashing guide writes the device it formats or overwrites the way a person
marks a blank: `/dev/sdX`, `/dev/sdXn`, `/dev/sdX1`, `/dev/sdXY`, `/dev/nvmeXnY`,
`/dev/nvme0nXpY`, `/dev/mmcblkXpN`, `/dev/diskN`, `/dev/<device>`, `/dev/YOUR_DISK`. The
kernel never names a disk that way: its names are a lowercase family (`sd`, `nvme`,
`mmcblk`, macOS's `disk`) followed by lowercase letters and numbers, so an upper-case letter in
a slot where the kernel writes a letter or a number is a blank to fill. The agent cannot run
the command as written; it still wipes whatever the user names, so SF505 keeps a warning.

A variable (`/dev/$DEV`, `/dev/${DEVICE}`, `"$DISK"`, `{device}`) is not a blank: a script
runs on the value it holds, so it is read as the device it names. Real names stay real:
`/dev/sda1`, `/dev/nvme0n1p2`, `/dev/sdx` (the 24th SCSI disk), `/dev/disk/by-id/ata-...`.
"""

from __future__ import annotations

import re

from linters.text.compiled_regex import rx

# A slot the kernel fills with a number (or, after `sd`, letters), written as a blank.
_SLOT = r"(?:\d+|[A-Z][a-z]?)"
_BLANK = rx(
    # `sdX`, `sdXn`, `sdX1`, `sdXY`, `hdX`, `vdX`, `xvdX`: the drive letter is a capital.
    r"(?:sd|hd|vd|xvd)[A-Z][A-Za-z]?\d*"
    rf"|nvme{_SLOT}(?:n{_SLOT}(?:p{_SLOT})?)?"
    rf"|mmcblk{_SLOT}(?:p{_SLOT})?"
    rf"|r?disk{_SLOT}(?:s{_SLOT})?"
    rf"|loop{_SLOT}"
    # `/dev/<device>`, `/dev/<usb stick>`; `/dev/DEVICE`, `/dev/YOUR_DISK`.
    r"|<[\w .-]{1,30}>"
    r"|[A-Z][A-Z0-9_]{2,}"
)
# The name after /dev/: a bracketed blank, or a run of name characters (a variable's `$` and
# braces included, so `/dev/${DISK}` is read whole and is no blank).
_DEVICE = rx(r"/dev/(<[^<>\n]{1,30}>|[\w${}.-]+)")
_SOURCE = rx(r"\bif=$")


def is_blank(name: str) -> bool:
    """Whether a device name (what follows /dev/) is a placeholder, not a disk or a variable."""
    m = _BLANK.fullmatch(name)
    return bool(m) and any(c.isupper() or c == "<" for c in name)


def placeholder_device(text: str, start: int, end: int) -> str | None:
    """The placeholder device a destructive command (matched at `start:end`) writes to.

    The match stops inside its target's name (`of=/dev/sd`, `mkfs.ext4 /dev/`), so the name
    runs on past `end`. Every device the command writes must be a blank (`mkfs.btrfs /dev/sdX
    /dev/sdb` formats a real disk too); `if=/dev/zero`, the data dd reads, is not written.
    """
    targets: list[re.Match[str]] = []
    last = text.rfind("/dev/", start, end + 1)
    for m in _DEVICE.finditer(text, start):
        if m.start() > last:
            break
        if not _SOURCE.search(text, max(0, m.start() - 3), m.start()):
            targets.append(m)
    if targets and all(is_blank(m.group(1)) for m in targets):
        return targets[-1].group(0)
    return None
