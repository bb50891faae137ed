"""SF505 on holdout24: a filesystem made on a placeholder device in a cheat sheet.

A Linux cheat sheet lists `sudo mkfs.ext4 /dev/sdXn  # create ext4` beside `lsblk` and
`fdisk /dev/sdX`. The device is a blank the reader fills in; holdout14 already read
`dd ... of=/dev/sdX` that way (a warning), but only a bare `sdX`, `diskN` or `nvmeN`: a
partition blank (`sdXn`, `sdX1`, `nvme0nXpY`) stayed critical. Now any name the kernel could
not give (a capital where it writes a letter or a number, `<device>`, `YOUR_DISK`) is a
blank. A variable (`/dev/$DEV`) is a value the script runs on, not a blank; a real disk
(`/dev/sda1`, `/dev/nvme0n1p2`, `/dev/sdx`) stays critical, and so does a line that formats a
real disk beside a blank one. Every skill text here is written for this file.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linters.security.placeholder_device import is_blank
from tests.hypothesis_budget import examples
from tests.linters.test_issue36_security import found

_SHEET = (
    "## Storage\n\n```bash\n"
    "lsblk -f                          # filesystems and UUIDs\n"
    "sudo parted /dev/sdX print        # partition table\n"
    "{cmd}   # make the filesystem\n"
    "```\n"
)


def _sheet(cmd: str) -> list[tuple[str, str]]:
    return found(_SHEET.format(cmd=cmd), rule="SF505")


def _script(cmd: str) -> list[tuple[str, str]]:
    return found(f"#!/usr/bin/env bash\nset -euo pipefail\n{cmd}\n", "scripts/prep.sh",
                 rule="SF505")


@pytest.mark.parametrize("cmd", [
    "sudo mkfs.ext4 /dev/sdXn", "sudo mkfs.xfs /dev/sdX1", "mkfs.btrfs -L data /dev/sdXY",
    "sudo mkfs.vfat -F32 /dev/sdXn", "mkfs.ext4 /dev/nvmeXnY", "mkfs.f2fs /dev/nvme0nXpY",
    "mkfs.ext4 /dev/mmcblkXpN", "sudo newfs_msdos /dev/diskN && mkfs.exfat /dev/disk2sN",
    "mkfs.ext4 /dev/<partition>", "mkfs.ext4 /dev/YOUR_PARTITION",
    "sudo wipefs -a /dev/sdXn", "sudo dd if=/dev/zero of=/dev/nvme0nXpY bs=1M count=1",
])
def test_a_blank_device_is_a_warning(cmd):
    """Before: SF505 critical for every partition-shaped blank (`sdXn`, `nvme0nXpY`, ...)."""
    assert _sheet(cmd) == [("SF505", "warning")]


@pytest.mark.parametrize("cmd", [
    "sudo mkfs.ext4 /dev/sda1", "mkfs.btrfs /dev/nvme0n1p2", "dd if=disk.img of=/dev/sdb",
    "mkfs.ext4 /dev/sdx1", "mkfs.vfat /dev/mmcblk0p1", "wipefs -a /dev/disk2",
    # a variable is the value the script runs on
    "mkfs.ext4 /dev/$DEV", 'mkfs.ext4 "/dev/${DEVICE}"', "wipefs -a /dev/$USB_DISK",
    # a real disk beside a blank one
    "mkfs.btrfs -d raid1 /dev/sdX /dev/sdb", "mkfs.ext4 /dev/sdXn && mkfs.ext4 /dev/sda",
    "sudo dd if=/dev/sdX of=/dev/sda",
])
def test_a_real_or_variable_device_stays_critical(cmd):
    assert _sheet(cmd) == [("SF505", "critical")]


def test_a_script_formatting_a_real_disk_stays_critical():
    assert _script("mkfs.ext4 -F /dev/nvme0n1p2") == [("SF505", "critical")]
    assert _script('DEV=/dev/sdb\nmkfs.ext4 -F "/dev/${DEV##*/}"') == [("SF505", "critical")]


_BLANKS = st.sampled_from("XYNM")
_NUMS = st.integers(0, 15).map(str)


@st.composite
def _blank_and_real(draw):
    """A device name with one slot or more left blank, and the same name filled in."""
    family = draw(st.sampled_from(["sd", "nvme", "mmcblk", "disk"]))
    slots = {"sd": ["", ""], "nvme": ["", "n", "p"], "mmcblk": ["", "p"], "disk": ["", "s"]}
    used = slots[family][: draw(st.integers(1, len(slots[family])))]
    real, blank, blanked = family, family, False
    for i, lead in enumerate(used):
        fill = draw(st.sampled_from("abc")) if family == "sd" and i == 0 else draw(_NUMS)
        hole = draw(st.booleans()) or (i == len(used) - 1 and not blanked)
        if family == "sd" and i == 0:
            hole = True  # a drive letter filled in is lowercase: the blank is the capital
        real += lead + fill
        blank += lead + (draw(_BLANKS) if hole else fill)
        blanked = blanked or hole
    return blank, real


@settings(max_examples=examples(200))
@given(_blank_and_real())
def test_a_blank_slot_makes_a_placeholder_and_filling_it_a_disk(pair):
    blank, real = pair
    assert is_blank(blank), blank
    assert not is_blank(real), real


@settings(max_examples=examples(100))
@given(st.from_regex(r"\A[A-Z_]*(?:DEV|DISK|DRIVE|USB)[A-Z_]*\Z"), st.booleans())
def test_a_variable_is_never_a_placeholder(name, braces):
    var = f"${{{name}}}" if braces else f"${name}"
    assert not is_blank(var)
    assert _sheet(f"sudo mkfs.ext4 /dev/{var}") == [("SF505", "critical")]
