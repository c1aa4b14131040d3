#!/bin/sh
# Makes Debian bookworm's minimal root file system as <folder>/rootfs.tar: debootstrap --variant=minbase from
# deb.debian.org, then the suite's updates and security fixes, then slimmed as Docker's official slim image is:
# dpkg leaves out documentation, manual pages and translations of everything installed later, and apt keeps no
# package lists or downloaded packages. Runs as root (debootstrap and chroot need it). Usage: rootfs.sh <folder>
set -eu
folder=$1
root=$folder/root
mirror=http://deb.debian.org/debian
rm -rf "$root"
mkdir -p "$root"

debootstrap --variant=minbase --components=main bookworm "$root" "$mirror"

cat > "$root/etc/apt/sources.list" <<SOURCES
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
SOURCES

# As Docker's official slim images (debuerreotype's --slimify): what dpkg leaves out from now on.
cat > "$root/etc/dpkg/dpkg.cfg.d/docker" <<'DPKG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
DPKG
cat > "$root/etc/apt/apt.conf.d/docker-clean" <<'APT'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
APT
cat > "$root/etc/apt/apt.conf.d/docker-no-languages" <<'APT'
Acquire::Languages "none";
APT
cat > "$root/etc/apt/apt.conf.d/docker-gzip-indexes" <<'APT'
Acquire::GzipIndexes "true";
APT
cat > "$root/etc/apt/apt.conf.d/docker-autoremove-suggests" <<'APT'
Apt::AutoRemove::SuggestsImportant "false";
APT
# No recommended packages by default: each image names what it needs.
cat > "$root/etc/apt/apt.conf.d/docker-no-recommends" <<'APT'
APT::Install-Recommends "false";
APT

# The suite's updates and security fixes.
chroot "$root" sh -c 'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get -y upgrade && apt-get clean'

# What the first install put in before the exclusions applied, and what a container gets from Docker anyway.
find "$root/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
find "$root/usr/share/doc" -mindepth 1 -type d -empty -delete
rm -rf "$root/usr/share/man/"* "$root/usr/share/info/"* "$root/usr/share/groff/"* "$root/usr/share/lintian/"*
find "$root/usr/share/locale" -mindepth 1 -maxdepth 1 -not -name locale.alias -exec rm -rf {} +
rm -rf "$root/var/lib/apt/lists/"* "$root/var/cache/apt/"* "$root/var/cache/debconf/"*-old \
  "$root/var/lib/dpkg/"*-old "$root/var/log/"*.log "$root/var/log/apt/"* "$root/tmp/"* "$root/var/tmp/"*
rm -f "$root/etc/hostname" "$root/etc/resolv.conf"
: > "$root/etc/machine-id"
: > "$root/etc/hosts"

tar --numeric-owner --xattrs -C "$root" -cf "$folder/rootfs.tar" .
rm -rf "$root"
