#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# gpio-sim-vm.sh — run a command inside a throw-away QEMU VM whose (Debian) kernel
# has a real GPIO simulator (gpio-sim, configfs based) loaded and one simulated
# chip already created, so that real libgpiod code can be integration-tested
# against the real kernel GPIO character-device ABI.
#
# Why a VM: the build and CI machines run a kernel without GPIOLIB and configfs
# (gpio-testing.md §1), so /dev/gpiochipN cannot exist there. Debian's stock kernel has GPIOLIB and
# GPIO_CDEV(_V1) built in and configfs as a module, but NOT gpio-sim /
# gpio-mockup; this script therefore builds gpio-sim.ko, gpio-mockup.ko and
# irq_sim.ko (CONFIG_IRQ_SIM, which they need and Debian lacks) out of tree from
# the matching linux-source package against the matching linux-headers package.
#
# USAGE
#   gpio-sim-vm.sh [options] [--] COMMAND [ARG...]
#   gpio-sim-vm.sh --self-test       # built-in gpiodetect/gpioget/gpioset/gpiomon test
#   gpio-sim-vm.sh --prepare         # only install packages + build the cached kernel bits
#
#   COMMAND runs inside the VM under busybox sh (as `sh -c`, so one quoted
#   string with pipes/&& works too), stdin </dev/null, as root, in --workdir.
#   The exit status of gpio-sim-vm.sh is COMMAND's exit status.
#
# OPTIONS
#   -f, --file SRC[:DEST]   put a file or directory into the VM at DEST
#                           (default: SRC's resolved absolute path). Every ELF
#                           file included also brings its shared libraries
#                           (found with ldd, copied to the same paths).
#                           Repeatable.
#   -b, --bin SRC           same as --file SRC:/usr/local/bin/<basename> (on PATH)
#   -e, --env NAME=VALUE    export a variable to COMMAND. Repeatable.
#   -C, --workdir DIR       directory COMMAND starts in (default /)
#   --banks N[,N...]        lines per simulated bank (default "8": one chip of
#                           8 lines). Each bank becomes one /dev/gpiochipX.
#   --line-name B:O=NAME    give line O of bank B a name (gpioinfo/gpiofind).
#                           Repeatable.
#   --mockup RANGES         also load gpio-mockup with gpio_mockup_ranges=RANGES
#                           (e.g. "-1,8"); its lines are driven by writing 0/1 to
#                           /sys/kernel/debug/gpio-mockup/<gpiochipN>/<offset>.
#                           Loaded first, so it takes the lowest gpiochip number.
#   --i2c-stub ADDRS        also load i2c-dev and i2c-stub with chip_addr=ADDRS
#                           (e.g. "0x70"): a fake SMBus chip (256 byte registers)
#                           at each address; its bus is $I2C_STUB_BUS in the VM.
#   -t, --timeout SEC       hard wall-clock limit for the whole VM run (default 300)
#   --boot-timeout SEC      give up if the VM's /init has not started by then
#                           (default 120)
#   --accel auto|kvm|tcg    accelerator (default auto: kvm only when the CPU shows
#                           vmx/svm, /dev/kvm is usable and it is not kvm_pvm —
#                           PVM cannot boot a stock kernel; otherwise tcg)
#   -m, --mem MB            guest RAM (default 512; the initramfs lives in RAM,
#                           so raise it when you include big files)
#   --smp N                 guest CPUs (default 2)
#   --append ARGS           extra kernel command-line arguments
#   --log FILE              also write the raw console log to FILE
#   -q, --quiet             do not stream the console; print it only on failure
#   --keep                  keep the scratch directory (path is printed)
#   --udev                  run systemd-udevd in the VM (Debian's udev package, unpacked
#                           into the cache): device links, ID_* properties and "udev"
#                           netlink events for hotplug. Without it nothing runs udevd.
#   --usb-serial            a real USB serial port that can be unplugged: dummy_hcd (a USB
#                           host and device controller in one) with a configfs CDC-ACM gadget
#                           plugged in, so /dev/ttyACM0 (host side, cdc_acm) talks to
#                           /dev/ttyGS0 (gadget side). usb-unplug / usb-plug unbind and bind
#                           the gadget (its UDC file): a real disconnect, with uevents.
#   --sound                 a real-time sound card: snd-aloop (Debian builds ALSA's loopback
#                           card as a module, CONFIG_SND_ALOOP=m) loaded with its dependencies,
#                           plus libasound.so.2 and the configuration it reads
#                           (/usr/share/alsa), which ldd cannot find for a program that loads
#                           the library with dlopen. sound-unplug / sound-plug take the card away
#                           and bring it back.
#   --voice                 espeak-ng for a program that makes speech with it through dlopen
#                           (wodclockd --synthesize-voice): libespeak-ng.so.1 with the libraries
#                           ldd says it needs, and its data directory (espeak-ng-data), neither
#                           of which ldd can find from the program.
#   --output FILE           a second serial port (ttyS1, built into Debian's kernel: no module
#                           and no shared folder needed) whose bytes land in FILE on the host,
#                           for a file made in the VM (a recording): in the VM it is
#                           $GPIO_SIM_VM_OUTPUT, set raw (no newline translation), so
#                           `cat FILE >"$GPIO_SIM_VM_OUTPUT"` copies it byte for byte.
#   --self-test             run the built-in libgpiod tool test (PASS/FAIL lines)
#   --prepare               set up the cache and exit 0 (no VM is booted)
#   -h, --help              this text
#
# INSIDE THE VM (for COMMAND)
#   $GPIO_SIM_CHIP          chip name of bank 0, e.g. gpiochip0 (/dev/$GPIO_SIM_CHIP)
#   $GPIO_SIM_SYSFS         /sys/devices/platform/gpio-sim.0/gpiochip0 (bank 0)
#   $GPIO_SIM_LABEL         label of bank 0's chip: gpio-sim-bank0
#   $GPIO_SIM_CHIP<B>, $GPIO_SIM_SYSFS<B>, $GPIO_SIM_LABEL<B>  the same for bank B;
#                           $GPIO_SIM_BANKS = count
#   $GPIO_SIM_VM=1
#   $I2C_STUB_BUS           with --i2c-stub: the stub's bus device, e.g. /dev/i2c-0
#   sim-pull [-b B] OFFSET up|down   drive an INPUT line from "outside" (writes
#                                    pull-up/pull-down to .../sim_gpioOFFSET/pull)
#   sim-value [-b B] OFFSET          print what the outside world sees on a line
#                                    (0/1; for an OUTPUT line: what the program set)
#   Tools: busybox applets, gpiodetect gpioinfo gpioget gpioset gpiomon gpiofind
#   (libgpiod v1, Debian's 1.6.3) and libgpiod.so.2.
#   Input: evdev.ko and uinput.ko are loaded (/dev/input/eventN, /dev/uinput), so a test
#   can create virtual keyboards; with --udev, udevd has processed them before COMMAND.
#   With --usb-serial: $USB_SERIAL_HOST (/dev/ttyACM0), $USB_SERIAL_GADGET (/dev/ttyGS0),
#   $USB_SERIAL_ID (1d6b:0104:HIL0001, vendor:product:serial), $USB_SERIAL_BY_ID (the
#   /dev/serial/by-id link udev makes; only with --udev), and the commands usb-unplug and
#   usb-plug.
#   With --sound: card "Loopback" (playback hw:Loopback,0,N is heard on capture
#   hw:Loopback,1,N); sound-unplug unbinds the card's device from its driver (what pulling a
#   USB card does: open PCMs fail with ENODEV) and unloads snd-aloop once nothing holds it;
#   sound-plug loads it again.
#   Note: gpio-sim reverts a line to its pull when it is released, so read an
#   output back while it is still requested (e.g. `gpioset --mode=signal ... &`).
#   Note: busybox sh runs its own applet in preference to a same-named file on
#   PATH (xz, tar, sed, ...): call such included binaries by absolute path.
#
# EXIT STATUS
#   COMMAND's status (0-255); 124 = timed out (no result marker seen);
#   125 = the VM failed to boot/run or this script failed.
#
# TIMING (a 2-vCPU cloud VM without nested virtualization, TCG): the first run
#   takes ~35 s more to build the cache; then ~5 s per run for a trivial command.
#   KVM is used only where it can boot a stock kernel (see the accelerator section).
#
# EXAMPLES
#   Tests/hil/gpio-sim-vm.sh --self-test
#   Tests/hil/gpio-sim-vm.sh -b .build/debug/wodclock-gpio-check \
#     --line-name 0:3=wodclock-button -- 'wodclock-gpio-check'
#   (Tests/hil/run.sh builds the check for libgpiod v1 and v2 and runs it this way.)
#
# ENVIRONMENT
#   GPIO_SIM_VM_CACHE   cache dir (default <repo>/.build/gpio-sim-vm-cache):
#                       kernel and modules, built per kernel ABI; safe to delete.
#   GPIO_SIM_VM_KABI    pin the Debian kernel ABI (e.g. 6.1.0-57); default: the
#                       newest one already in the cache, else whatever
#                       linux-image-amd64 depends on in apt's lists.
#
# Networking: the VM has no network device at all (-nic none); nothing leaves it.
# All scratch data lives under /tmp (removed on exit, also on SIGINT/SIGTERM).
# Needs root (apt-get, mknod). The console goes to a file (qemu -serial file:)
# that is streamed with tail, so qemu never touches the caller's terminal.

set -euo pipefail

PROG=gpio-sim-vm.sh
REPO_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CACHE_ROOT=${GPIO_SIM_VM_CACHE:-$REPO_ROOT/.build/gpio-sim-vm-cache}
MARK_EXIT=GPIO_SIM_VM_EXIT       # "GPIO_SIM_VM_EXIT=<rc>" printed by /init
MARK_BOOT=GPIO_SIM_VM_INIT_STARTED

log() { printf '%s: %s\n' "$PROG" "$*" >&2; }
die() { log "error: $*"; exit 125; }
usage() { sed -n '3,/^set -euo/{/^#/s/^# \{0,1\}//p}' "$0"; }

# ---------------------------------------------------------------- arguments --
FILES=() ENVS=() LINE_NAMES=()
WORKDIR=/ BANKS=8 MOCKUP="" I2C_STUB="" TIMEOUT=300 BOOT_TIMEOUT=120 ACCEL=auto MEM=512
SMP=2 APPEND="" LOGFILE="" OUTPUT="" QUIET=0 KEEP=0 SELFTEST=0 PREPARE=0 UDEV=0 USB_SERIAL=0 SOUND=0 VOICE=0
while [ $# -gt 0 ]; do
  case "$1" in   # options that take a value must have one
    -f|--file|-b|--bin|-e|--env|-C|--workdir|--banks|--line-name|--mockup|--i2c-stub|-t|--timeout|--boot-timeout|--accel|-m|--mem|--smp|--append|--log|--output)
      [ $# -ge 2 ] || die "$1 needs a value" ;;
  esac
  case "$1" in
    -f|--file) FILES+=("$2"); shift 2 ;;
    -b|--bin) FILES+=("$2:/usr/local/bin/$(basename "$2")"); shift 2 ;;
    -e|--env) [[ "$2" == *=* ]] || die "--env needs NAME=VALUE"; ENVS+=("$2"); shift 2 ;;
    -C|--workdir) WORKDIR=$2; shift 2 ;;
    --banks) BANKS=$2; shift 2 ;;
    --line-name) LINE_NAMES+=("$2"); shift 2 ;;
    --mockup) MOCKUP=$2; shift 2 ;;
    --i2c-stub) I2C_STUB=$2; shift 2 ;;
    -t|--timeout) TIMEOUT=$2; shift 2 ;;
    --boot-timeout) BOOT_TIMEOUT=$2; shift 2 ;;
    --accel) ACCEL=$2; shift 2 ;;
    -m|--mem) MEM=$2; shift 2 ;;
    --smp) SMP=$2; shift 2 ;;
    --append) APPEND=$2; shift 2 ;;
    --log) LOGFILE=$2; shift 2 ;;
    --output) OUTPUT=$(realpath -m "$2"); shift 2 ;;
    -q|--quiet) QUIET=1; shift ;;
    --keep) KEEP=1; shift ;;
    --self-test) SELFTEST=1; shift ;;
    --udev) UDEV=1; shift ;;
    --usb-serial) USB_SERIAL=1; shift ;;
    --sound) SOUND=1; shift ;;
    --voice) VOICE=1; shift ;;
    --prepare) PREPARE=1; shift ;;
    -h|--help) usage; exit 0 ;;
    --) shift; break ;;
    -*) die "unknown option $1 (see --help)" ;;
    *) break ;;
  esac
done
CMD_ARGS=("$@")
if [ "$PREPARE" = 0 ] && [ "$SELFTEST" = 0 ] && [ ${#CMD_ARGS[@]} -eq 0 ]; then
  usage >&2; die "no COMMAND given (or use --self-test / --prepare)"
fi
[[ "$BANKS" =~ ^[0-9]+(,[0-9]+)*$ ]] || die "--banks must look like 8 or 8,4"
[[ "$ACCEL" =~ ^(auto|kvm|tcg)$ ]] || die "--accel must be auto, kvm or tcg"
[ "$(id -u)" = 0 ] || die "must run as root"

# --------------------------------------------------------- host packages ----
# apt-get only when something is missing, so repeated runs are offline/no-op.
APT_UPDATED=0
apt_install() {  # apt_install PKG... (installs only the missing ones)
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "apt-get install ${missing[*]}"
  # Another apt at work (an upgrade, another install) holds dpkg's lock, and its packages may
  # read as half installed meanwhile: wait for it rather than fail.
  local wait=(-o DPkg::Lock::Timeout=600)
  if ! DEBIAN_FRONTEND=noninteractive apt-get "${wait[@]}" install -y --no-install-recommends "${missing[@]}" >/tmp/$PROG-apt.log 2>&1; then
    [ "$APT_UPDATED" = 1 ] && { tail -20 /tmp/$PROG-apt.log >&2; die "apt-get install failed"; }
    apt-get "${wait[@]}" update >/tmp/$PROG-apt.log 2>&1 || die "apt-get update failed"; APT_UPDATED=1
    DEBIAN_FRONTEND=noninteractive apt-get "${wait[@]}" install -y --no-install-recommends "${missing[@]}" >/tmp/$PROG-apt.log 2>&1 \
      || { tail -20 /tmp/$PROG-apt.log >&2; die "apt-get install ${missing[*]} failed"; }
  fi
}
# qemu, a static busybox for the guest userland, libgpiod v1 tools+lib, cpio,
# and libc-bin's ldconfig to give the guest an ld.so.cache.
apt_install qemu-system-x86 busybox-static gpiod libgpiod2 cpio libc-bin xz-utils binutils

# ------------------------------------------------- kernel + gpio-sim cache ---
# Resolve which Debian kernel to use: linux-image-amd64 -> linux-image-<ABI>-amd64.
# A kernel already in the cache is reused (no apt call, ~1.5 s saved); delete
# the cache or set GPIO_SIM_VM_KABI to move to a newer Debian kernel.
resolve_kabi() {
  if [ -n "${GPIO_SIM_VM_KABI:-}" ]; then echo "$GPIO_SIM_VM_KABI"; return; fi
  local dep
  dep=$(ls -d "$CACHE_ROOT"/*-amd64/modules/gpio-sim.ko 2>/dev/null | sed 's|.*/\([^/]*\)-amd64/modules/gpio-sim.ko$|\1|' | sort -V | tail -1)
  if [ -n "$dep" ]; then echo "$dep"; return; fi
  dep=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: linux-image-\(.*\)-amd64$/\1/p' | head -1)
  if [ -z "$dep" ]; then
    apt-get update >/tmp/$PROG-apt.log 2>&1 || die "apt-get update failed"; APT_UPDATED=1
    dep=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: linux-image-\(.*\)-amd64$/\1/p' | head -1)
  fi
  [ -n "$dep" ] || die "cannot resolve the Debian kernel ABI from linux-image-amd64"
  echo "$dep"
}
KABI=$(resolve_kabi)                       # e.g. 6.1.0-57
KREL="$KABI-amd64"                          # uname -r in the guest
KMAJ=$(echo "$KABI" | cut -d. -f1,2)        # e.g. 6.1 (linux-source-6.1)
CACHE="$CACHE_ROOT/$KREL"
mkdir -p "$CACHE_ROOT"

# Debian's bzImage is xz-compressed (CONFIG_KERNEL_XZ). Unpacking it once on
# the host lets qemu boot the ELF vmlinux through its PVH entry (CONFIG_PVH=y).
# xz exits 1 ("Compressed data is corrupt") only because of the bytes that
# follow the xz stream in the bzImage; the output is complete (checked: equal
# to Python lzma's), so success is judged on the result instead.
extract_vmlinux() {  # extract_vmlinux BZIMAGE OUT
  local off
  off=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$1" | head -1 | cut -d: -f1)
  [ -n "$off" ] || { log "no xz stream in $1; using bzImage"; return 1; }
  tail -c +$((off + 1)) "$1" | xz -dc >"$2.part" 2>/dev/null || true
  if [ "$(head -c 4 "$2.part" | od -An -c | tr -d ' \n')" = '177ELF' ] \
     && readelf -n "$2.part" 2>/dev/null | grep -qE 'PHYS32_ENTRY|\(0x00000012\)'; then
    mv "$2.part" "$2"
  else
    rm -f "$2.part"; log "vmlinux extraction failed or no PVH note; using bzImage"; return 1
  fi
}

# i2c-dev and i2c-stub ship as modules in Debian's linux-image (CONFIG_I2C_CHARDEV=m,
# CONFIG_I2C_STUB=m); the I2C core too where it is not built in. Copies whichever exist
# (plain or xz-compressed) from an unpacked linux-image tree.
copy_i2c_modules() {  # copy_i2c_modules IMAGE_ROOT DEST_DIR
  local m f
  for m in i2c-core i2c-dev i2c-stub; do
    f=$(find "$1/lib/modules/$KREL/kernel/drivers/i2c" -maxdepth 1 -name "$m.ko*" | head -1)
    [ -n "$f" ] || continue
    case "$f" in
      *.xz) xz -dc "$f" >"$2/$m.ko" ;;
      *) cp "$f" "$2/$m.ko" ;;
    esac
  done
  [ -f "$2/i2c-stub.ko" ] && [ -f "$2/i2c-dev.ko" ]
}

# Caches built before i2c-stub support: add the two modules from the linux-image package.
add_i2c_modules() {
  local scratch
  log "adding i2c-dev and i2c-stub to the kernel cache"
  scratch=$(mktemp -d "/tmp/$PROG-i2c.XXXXXX")
  ( cd "$scratch" && apt-get download "linux-image-$KREL" >apt-download.log 2>&1 ) \
    || { cat "$scratch/apt-download.log" >&2; rm -rf "$scratch"; die "apt-get download failed"; }
  dpkg -x "$scratch"/linux-image-"$KREL"_*.deb "$scratch/img"
  copy_i2c_modules "$scratch/img" "$CACHE/modules" || { rm -rf "$scratch"; die "no i2c-dev/i2c-stub in linux-image-$KREL"; }
  strip --strip-debug "$CACHE/modules/"i2c-*.ko
  rm -rf "$scratch"
}

# evdev and uinput are modules in Debian's kernel (CONFIG_INPUT_EVDEV=m, CONFIG_INPUT_UINPUT=m):
# /dev/input/eventN for keyboards, /dev/uinput to create virtual ones in tests.
copy_input_modules() {  # copy_input_modules UNPACKED_IMAGE_DIR DEST
  local m=$1/lib/modules/$KREL/kernel/drivers/input
  cp "$m/evdev.ko" "$m/misc/uinput.ko" "$2/" || die "evdev.ko/uinput.ko not in linux-image-$KREL"
}
add_input_modules() {  # caches built before the input modules were part of them
  local scratch
  log "adding evdev.ko and uinput.ko to the kernel cache (one-time)"
  scratch=$(mktemp -d "/tmp/$PROG-input.XXXXXX")
  ( cd "$scratch" && apt-get download "linux-image-$KREL" >apt-download.log 2>&1 ) \
    || { cat "$scratch/apt-download.log" >&2; rm -rf "$scratch"; die "apt-get download failed"; }
  dpkg -x "$scratch"/linux-image-"$KREL"_*.deb "$scratch/img"
  copy_input_modules "$scratch/img" "$CACHE/modules"
  strip --strip-debug "$CACHE/modules/evdev.ko" "$CACHE/modules/uinput.ko"
  rm -rf "$scratch"
}

# The USB stack, dummy_hcd and the CDC-ACM gadget and host drivers for --usb-serial. Debian's
# kernel builds them all as modules (CONFIG_USB_DUMMY_HCD=m, CONFIG_USB_CONFIGFS_ACM=y,
# CONFIG_USB_F_ACM=m, CONFIG_USB_ACM=m); listed in load order (their modinfo depends=).
USB_SERIAL_MODULES="common/usb-common core/usbcore gadget/udc/udc-core gadget/udc/dummy_hcd
  gadget/libcomposite gadget/function/u_serial gadget/function/usb_f_acm class/cdc-acm"
copy_usb_modules() {  # copy_usb_modules UNPACKED_IMAGE_DIR DEST
  local m=$1/lib/modules/$KREL/kernel/drivers/usb f
  for f in $USB_SERIAL_MODULES; do
    [ -f "$m/$f.ko" ] || die "$(basename "$f").ko is not in linux-image-$KREL (see CONFIG_USB_DUMMY_HCD and CONFIG_USB_F_ACM in its config)"
    cp "$m/$f.ko" "$2/"
  done
}
add_usb_modules() {  # caches built before the USB modules were part of them
  local scratch
  log "adding dummy_hcd and the CDC-ACM modules to the kernel cache (one-time)"
  scratch=$(mktemp -d "/tmp/$PROG-usb.XXXXXX")
  ( cd "$scratch" && apt-get download "linux-image-$KREL" >apt-download.log 2>&1 ) \
    || { cat "$scratch/apt-download.log" >&2; rm -rf "$scratch"; die "apt-get download failed"; }
  dpkg -x "$scratch"/linux-image-"$KREL"_*.deb "$scratch/img"
  mkdir -p "$scratch/usb"
  copy_usb_modules "$scratch/img" "$scratch/usb"
  strip --strip-debug "$scratch/usb/"*.ko
  rm -rf "$CACHE/usb-modules"; mv "$scratch/usb" "$CACHE/usb-modules"
  rm -rf "$scratch"
}

# ALSA's core and the loopback card, modules in Debian's kernel (CONFIG_SOUND=m, CONFIG_SND=m,
# CONFIG_SND_ALOOP=m); listed in load order (their modinfo depends=).
SOUND_MODULES="soundcore core/snd core/snd-timer core/snd-pcm drivers/snd-aloop"
copy_sound_modules() {  # copy_sound_modules UNPACKED_IMAGE_DIR DEST
  local m=$1/lib/modules/$KREL/kernel/sound f
  for f in $SOUND_MODULES; do
    [ -f "$m/$f.ko" ] || die "$(basename "$f").ko is not in linux-image-$KREL (see CONFIG_SND_ALOOP in its config)"
    cp "$m/$f.ko" "$2/"
  done
}
add_sound_modules() {  # caches built before the sound modules were part of them
  local scratch
  log "adding snd-aloop and ALSA's core modules to the kernel cache (one-time)"
  scratch=$(mktemp -d "/tmp/$PROG-sound.XXXXXX")
  ( cd "$scratch" && apt-get download "linux-image-$KREL" >apt-download.log 2>&1 ) \
    || { cat "$scratch/apt-download.log" >&2; rm -rf "$scratch"; die "apt-get download failed"; }
  dpkg -x "$scratch"/linux-image-"$KREL"_*.deb "$scratch/img"
  mkdir -p "$scratch/sound"
  copy_sound_modules "$scratch/img" "$scratch/sound"
  strip --strip-debug "$scratch/sound/"*.ko
  rm -rf "$CACHE/sound-modules"; mv "$scratch/sound" "$CACHE/sound-modules"
  rm -rf "$scratch"
}

build_kernel_cache() {
  local scratch src hdr v_img v_src
  log "building kernel cache for $KREL in $CACHE (one-time; ~1-2 min)"
  # Headers (and with them gcc-12 + kbuild) to compile the out-of-tree modules.
  apt_install build-essential make "linux-headers-$KREL"
  hdr="/usr/src/linux-headers-$KREL"
  [ -f "$hdr/Module.symvers" ] || die "$hdr/Module.symvers missing"
  scratch=$(mktemp -d "/tmp/$PROG-kbuild.XXXXXX")
  # shellcheck disable=SC2064
  trap "rm -rf '$scratch'" EXIT   # runs in the flock subshell below
  ( cd "$scratch" && apt-get download "linux-image-$KREL" "linux-source-$KMAJ" >apt-download.log 2>&1 ) \
    || { cat "$scratch/apt-download.log" >&2; die "apt-get download failed"; }
  v_img=$(dpkg-deb -f "$scratch"/linux-image-"$KREL"_*.deb Version)
  v_src=$(dpkg-deb -f "$scratch"/linux-source-"$KMAJ"_*.deb Version)
  [ "$v_img" = "$v_src" ] || log "warning: linux-image $v_img vs linux-source $v_src differ"
  dpkg -x "$scratch"/linux-image-"$KREL"_*.deb "$scratch/img"
  # Only four files are needed from the ~140 MB source tarball.
  src="linux-source-$KMAJ"
  dpkg-deb --fsys-tarfile "$scratch"/linux-source-"$KMAJ"_*.deb \
    | tar -xO "./usr/src/$src.tar.xz" \
    | tar -xJ -C "$scratch" "$src/drivers/gpio/gpio-sim.c" "$src/drivers/gpio/gpio-mockup.c" \
        "$src/drivers/gpio/gpiolib.h" "$src/kernel/irq/irq_sim.c"
  mkdir -p "$scratch/kmod"
  cp "$scratch/$src/drivers/gpio/"{gpio-sim.c,gpio-mockup.c,gpiolib.h} "$scratch/$src/kernel/irq/irq_sim.c" "$scratch/kmod/"
  # irq_sim.c is normally built-in (bool IRQ_SIM). As a module it may not use
  # the unexported irq_to_desc(); generic_handle_domain_irq() (exported) does
  # the same lookup + handle_simple_irq() dispatch. It also needs a license tag.
  sed -i 's/^\(\s*\)handle_simple_irq(irq_to_desc(irqnum));/\1(void)irqnum; generic_handle_domain_irq(work_ctx->domain, offset);/' "$scratch/kmod/irq_sim.c"
  grep -q 'generic_handle_domain_irq(work_ctx->domain, offset)' "$scratch/kmod/irq_sim.c" \
    || grep -q 'generic_handle_domain_irq' "$scratch/kmod/irq_sim.c" \
    || die "could not patch irq_sim.c for out-of-tree build (source changed?)"
  printf '\nMODULE_LICENSE("GPL");\nMODULE_DESCRIPTION("kernel/irq/irq_sim.c built as a module");\n' >>"$scratch/kmod/irq_sim.c"
  echo 'obj-m := irq_sim.o gpio-sim.o gpio-mockup.o' >"$scratch/kmod/Kbuild"
  make -C "$hdr" M="$scratch/kmod" modules >"$scratch/kmod/build.log" 2>&1 \
    || { tail -30 "$scratch/kmod/build.log" >&2; die "module build failed"; }
  rm -rf "$CACHE.tmp"; mkdir -p "$CACHE.tmp/modules"
  cp "$scratch/img/boot/vmlinuz-$KREL" "$CACHE.tmp/vmlinuz"
  cp "$scratch/img/boot/config-$KREL" "$CACHE.tmp/config"
  cp "$scratch/img/lib/modules/$KREL/kernel/fs/configfs/configfs.ko" "$CACHE.tmp/modules/"
  cp "$scratch/kmod/"{irq_sim.ko,gpio-sim.ko,gpio-mockup.ko} "$CACHE.tmp/modules/"
  copy_i2c_modules "$scratch/img" "$CACHE.tmp/modules" || die "no i2c-dev/i2c-stub in linux-image-$KREL"
  copy_input_modules "$scratch/img" "$CACHE.tmp/modules"
  mkdir -p "$CACHE.tmp/usb-modules"
  copy_usb_modules "$scratch/img" "$CACHE.tmp/usb-modules"
  mkdir -p "$CACHE.tmp/sound-modules"
  copy_sound_modules "$scratch/img" "$CACHE.tmp/sound-modules"
  strip --strip-debug "$CACHE.tmp/modules/"*.ko "$CACHE.tmp/usb-modules/"*.ko \
    "$CACHE.tmp/sound-modules/"*.ko
  # Load order (= modules.dep): configfs, irq_sim -> gpio-sim; irq_sim -> gpio-mockup
  extract_vmlinux "$CACHE.tmp/vmlinuz" "$CACHE.tmp/vmlinux" || true
  echo "$v_img" >"$CACHE.tmp/version"
  rm -rf "$CACHE"; mv "$CACHE.tmp" "$CACHE"
  log "kernel cache ready: $(ls "$CACHE/modules" | tr '\n' ' ')"
}
(
  flock 9   # parallel runs share one cache; only one builds it
  [ -f "$CACHE/vmlinuz" ] && [ -f "$CACHE/modules/gpio-sim.ko" ] || build_kernel_cache
  [ -f "$CACHE/modules/i2c-stub.ko" ] || add_i2c_modules
) 9>"$CACHE_ROOT/.lock-$KREL"
[ -f "$CACHE/modules/gpio-sim.ko" ] || die "kernel cache incomplete: $CACHE"
if [ ! -e "$CACHE/vmlinux" ] && [ ! -e "$CACHE/.no-vmlinux" ]; then   # caches from older versions
  ( flock 9; [ -e "$CACHE/vmlinux" ] || extract_vmlinux "$CACHE/vmlinuz" "$CACHE/vmlinux" || touch "$CACHE/.no-vmlinux" ) 9>"$CACHE_ROOT/.lock-$KREL"
fi

if [ ! -e "$CACHE/modules/uinput.ko" ]; then
  ( flock 9; [ -e "$CACHE/modules/uinput.ko" ] || add_input_modules ) 9>"$CACHE_ROOT/.lock-$KREL"
fi
if [ ! -e "$CACHE/usb-modules/cdc-acm.ko" ]; then
  ( flock 9; [ -e "$CACHE/usb-modules/cdc-acm.ko" ] || add_usb_modules ) 9>"$CACHE_ROOT/.lock-$KREL"
fi
if [ ! -e "$CACHE/sound-modules/snd-aloop.ko" ]; then
  ( flock 9; [ -e "$CACHE/sound-modules/snd-aloop.ko" ] || add_sound_modules ) 9>"$CACHE_ROOT/.lock-$KREL"
fi

# udev for --udev: Debian's package unpacked once (udevadm is also systemd-udevd), not installed
# on the host. Its libraries come from the host through ldd, like every other binary's.
UDEV_DIR=""
if [ "$UDEV" = 1 ]; then
  UDEV_DIR="$CACHE_ROOT/udev"
  if [ ! -x "$UDEV_DIR/bin/udevadm" ]; then
    ( flock 9
      if [ ! -x "$UDEV_DIR/bin/udevadm" ]; then
        scratch=$(mktemp -d "/tmp/$PROG-udev.XXXXXX")
        ( cd "$scratch" && apt-get download udev >apt-download.log 2>&1 ) \
          || { apt-get update >/dev/null 2>&1; ( cd "$scratch" && apt-get download udev >apt-download.log 2>&1 ); } \
          || { cat "$scratch/apt-download.log" >&2; die "apt-get download udev failed"; }
        rm -rf "$UDEV_DIR.tmp"; dpkg -x "$scratch"/udev_*.deb "$UDEV_DIR.tmp"
        rm -rf "$scratch" "$UDEV_DIR"; mv "$UDEV_DIR.tmp" "$UDEV_DIR"
      fi
    ) 9>"$CACHE_ROOT/.lock-udev"
  fi
  [ -x "$UDEV_DIR/bin/udevadm" ] || die "udev cache incomplete: $UDEV_DIR"
fi

if [ "$PREPARE" = 1 ]; then log "prepared: $CACHE"; exit 0; fi

# ------------------------------------------------------------ scratch dir ---
WORK=$(mktemp -d "/tmp/$PROG.XXXXXX")
QPID_FILE="$WORK/qemu.pid"
cleanup() {
  local pid
  if [ -f "$QPID_FILE" ]; then
    pid=$(cat "$QPID_FILE" 2>/dev/null || true)
    [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  fi
  [ -n "${TAIL_PID:-}" ] && kill "$TAIL_PID" 2>/dev/null || true
  if [ "$KEEP" = 1 ]; then log "kept scratch dir $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
ROOT="$WORK/root"
mkdir -p "$ROOT"/{bin,sbin,usr/bin,usr/sbin,usr/local/bin,lib/x86_64-linux-gnu,lib64,etc,proc,sys,dev,tmp,run,root,lib/modules/gpio-sim-vm,gpio-sim-vm}

# ----------------------------------------------------- initramfs contents ---
is_elf() { [ -f "$1" ] && [ "$(head -c 4 "$1" | od -An -c | tr -d ' \n')" = '177ELF' ]; }
LIBDIRS=()
add_libs() {  # copy shared libraries an ELF file needs, at the paths ldd reports
  local f=$1 lib
  while read -r lib; do
    [ -n "$lib" ] || continue
    if [ ! -e "$ROOT$lib" ]; then
      mkdir -p "$ROOT$(dirname "$lib")"
      cp -L "$lib" "$ROOT$lib"
      LIBDIRS+=("$(dirname "$lib")")
    fi
  done < <(ldd "$f" 2>/dev/null | awk '/=> \//{print $3} /^[[:space:]]*\/[^ ]+ \(0x/{print $1}')
}
add_path() {  # add_path SRC DEST  (file or directory)
  local src=$1 dest=$2 f
  [ -e "$src" ] || die "no such file: $src"
  mkdir -p "$ROOT$(dirname "$dest")"
  if [ -d "$src" ]; then
    mkdir -p "$ROOT$dest"; cp -a "$src/." "$ROOT$dest/"
    while IFS= read -r -d '' f; do is_elf "$f" && add_libs "$f"; done < <(find "$src" -type f -print0)
  else
    cp -L --preserve=mode "$src" "$ROOT$dest"
    is_elf "$src" && add_libs "$src"
  fi
  return 0
}

# busybox (static) provides sh, mount, insmod, poweroff, ...: /init runs
# `busybox --install -s` (fast in the guest, and it never replaces files that
# are already there); only /bin/sh must exist up front for /init's #! line.
cp /bin/busybox "$ROOT/bin/busybox"
ln -s busybox "$ROOT/bin/sh"
# libgpiod v1 command-line tools + their libraries.
for t in gpiodetect gpioinfo gpioget gpioset gpiomon gpiofind; do
  add_path "/usr/bin/$t" "/usr/bin/$t"
done
cp "$CACHE/modules/"*.ko "$ROOT/lib/modules/gpio-sim-vm/"
if [ "$USB_SERIAL" = 1 ]; then
  mkdir -p "$ROOT/lib/modules/gpio-sim-vm/usb"
  cp "$CACHE/usb-modules/"*.ko "$ROOT/lib/modules/gpio-sim-vm/usb/"
  for f in $USB_SERIAL_MODULES; do basename "$f"; done >"$ROOT/lib/modules/gpio-sim-vm/usb/order"
fi
if [ "$SOUND" = 1 ]; then
  mkdir -p "$ROOT/lib/modules/gpio-sim-vm/sound"
  cp "$CACHE/sound-modules/"*.ko "$ROOT/lib/modules/gpio-sim-vm/sound/"
  for f in $SOUND_MODULES; do basename "$f"; done >"$ROOT/lib/modules/gpio-sim-vm/sound/order"
  # What a program that dlopens libasound needs and ldd cannot see: the library (a link at the
  # name it is opened by) and the configuration it parses at the first open.
  add_path /usr/lib/x86_64-linux-gnu/libasound.so.2.0.0 /usr/lib/x86_64-linux-gnu/libasound.so.2.0.0
  ln -sf libasound.so.2.0.0 "$ROOT/usr/lib/x86_64-linux-gnu/libasound.so.2"
  for part in alsa.conf cards ctl pcm; do add_path "/usr/share/alsa/$part" "/usr/share/alsa/$part"; done
fi
if [ "$VOICE" = 1 ]; then
  espeak_lib=/usr/lib/x86_64-linux-gnu/libespeak-ng.so.1
  [ -e "$espeak_lib" ] || die "no $espeak_lib (Debian's libespeak-ng1)"
  add_path "$espeak_lib" "$espeak_lib"
  add_path /usr/lib/x86_64-linux-gnu/espeak-ng-data /usr/lib/x86_64-linux-gnu/espeak-ng-data
fi
# /dev/console must exist before /init runs, or init gets no stdio.
mknod -m 600 "$ROOT/dev/console" c 5 1 2>/dev/null || true
mknod -m 666 "$ROOT/dev/null" c 1 3 2>/dev/null || true

# udevd (--udev): the binary, the rules that name and tag input devices, and the groups those
# rules give device nodes (50-udev-default.rules: input, ...).
if [ "$UDEV" = 1 ]; then
  add_path "$UDEV_DIR/bin/udevadm" /bin/udevadm
  mkdir -p "$ROOT/lib/systemd" "$ROOT/lib/udev/rules.d" "$ROOT/etc/udev"
  ln -s /bin/udevadm "$ROOT/lib/systemd/systemd-udevd"
  for rule in 50-udev-default.rules 60-input-id.rules 60-persistent-input.rules 70-mouse.rules \
    60-serial.rules; do
    cp "$UDEV_DIR/lib/udev/rules.d/$rule" "$ROOT/lib/udev/rules.d/"
  done
  printf 'root:x:0:0:root:/root:/bin/sh\n' >"$ROOT/etc/passwd"
  printf 'root:x:0:\ninput:x:101:\nkvm:x:102:\nvideo:x:103:\naudio:x:104:\ndisk:x:105:\ntty:x:5:\ndialout:x:20:\nrender:x:106:\nsgx:x:107:\n' >"$ROOT/etc/group"
  touch "$ROOT/gpio-sim-vm/udev"
fi

# User files.
for spec in "${FILES[@]}"; do
  src=${spec%%:*}; dest=${spec#*:}
  [ "$spec" = "$src" ] && dest=$(readlink -f "$src")
  case "$dest" in /*) ;; *) die "--file DEST must be absolute: $spec" ;; esac
  add_path "$src" "$dest"
done

# ld.so.cache so copied libraries resolve from any of the dirs they landed in.
printf '%s\n' /lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu /usr/local/lib "${LIBDIRS[@]+"${LIBDIRS[@]}"}" | sort -u >"$ROOT/etc/ld.so.conf"
ldconfig -r "$ROOT" 2>/dev/null || log "warning: ldconfig -r failed (libraries still found via ldd paths/RUNPATH)"

# Helpers for tests: drive an input from outside, read what the outside sees.
cat >"$ROOT/usr/bin/sim-pull" <<'EOF'
#!/bin/sh
# sim-pull [-b BANK] OFFSET up|down|pull-up|pull-down|1|0
b=0; [ "$1" = -b ] && { b=$2; shift 2; }
eval d=\$GPIO_SIM_SYSFS$b
case "$2" in up|pull-up|1) v=pull-up ;; down|pull-down|0) v=pull-down ;; *) echo "usage: sim-pull [-b B] OFFSET up|down" >&2; exit 2 ;; esac
echo $v > "$d/sim_gpio$1/pull"
EOF
cat >"$ROOT/usr/bin/sim-value" <<'EOF'
#!/bin/sh
# sim-value [-b BANK] OFFSET   -> prints 0 or 1
b=0; [ "$1" = -b ] && { b=$2; shift 2; }
eval d=\$GPIO_SIM_SYSFS$b
cat "$d/sim_gpio$1/value"
EOF
# --usb-serial: pull the gadget out and put it back (Documentation/usb/gadget_configfs.rst:
# writing a UDC name to UDC binds the gadget, an empty string unbinds it).
printf '#!/bin/sh\necho "" > /sys/kernel/config/usb_gadget/matrix/UDC\n' >"$ROOT/usr/bin/usb-unplug"
printf '#!/bin/sh\nls /sys/class/udc > /sys/kernel/config/usb_gadget/matrix/UDC\n' \
  >"$ROOT/usr/bin/usb-plug"
# --sound: the loopback card goes away as a pulled USB card does (unbinding its platform device
# disconnects the card: open PCMs report ENODEV), then its module is unloaded once nothing holds
# it open (waiting up to 10 s); sound-plug loads it again.
cat >"$ROOT/usr/bin/sound-unplug" <<'UNPLUG'
#!/bin/sh
echo snd_aloop.0 > /sys/bus/platform/drivers/snd_aloop/unbind || exit 1
i=0; while ! rmmod snd_aloop 2>/dev/null; do
  i=$((i+1)); [ $i -lt 100 ] || { echo "sound-unplug: snd_aloop is still in use"; exit 1; }
  sleep 0.1
done
UNPLUG
printf '#!/bin/sh\ninsmod /lib/modules/gpio-sim-vm/sound/snd-aloop.ko\n' >"$ROOT/usr/bin/sound-plug"
chmod +x "$ROOT/usr/bin/sim-pull" "$ROOT/usr/bin/sim-value" "$ROOT/usr/bin/usb-unplug" \
  "$ROOT/usr/bin/usb-plug" "$ROOT/usr/bin/sound-unplug" "$ROOT/usr/bin/sound-plug"

# Configuration read by /init.
{
  echo "BANKS='$BANKS'"
  echo "MOCKUP='$MOCKUP'"
  echo "WORKDIR='$WORKDIR'"
  echo "I2C_STUB='$I2C_STUB'"
  echo "USB_SERIAL='$USB_SERIAL'"
  echo "SOUND='$SOUND'"
  echo "OUTPUT='${OUTPUT:+1}'"
} >"$ROOT/gpio-sim-vm/config"
# --line-name specs, one "B:O=NAME" per line.
printf '%s\n' "${LINE_NAMES[@]+"${LINE_NAMES[@]}"}" | sed '/^$/d' >"$ROOT/gpio-sim-vm/line-names"
sq() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }  # POSIX single-quote
{
  for kv in "${ENVS[@]+"${ENVS[@]}"}"; do echo "export ${kv%%=*}=$(sq "${kv#*=}")"; done
} >"$ROOT/gpio-sim-vm/env"
# The command: one arg = a shell string; several args = an argv, quoted.
if [ "$SELFTEST" = 1 ]; then
  echo '/gpio-sim-vm/selftest' >"$ROOT/gpio-sim-vm/cmd"
elif [ ${#CMD_ARGS[@]} -eq 1 ]; then
  printf '%s\n' "${CMD_ARGS[0]}" >"$ROOT/gpio-sim-vm/cmd"
else
  for a in "${CMD_ARGS[@]}"; do printf '%s ' "$(sq "$a")"; done >"$ROOT/gpio-sim-vm/cmd"; echo >>"$ROOT/gpio-sim-vm/cmd"
fi

# Built-in self test: exercises each libgpiod v1 tool against gpio-sim.
cat >"$ROOT/gpio-sim-vm/selftest" <<'EOF'
#!/bin/sh
fail=0; pass=0
ok() { echo "PASS: $*"; pass=$((pass+1)); }
ko() { echo "FAIL: $*"; fail=$((fail+1)); }
C=$GPIO_SIM_CHIP; S=$GPIO_SIM_SYSFS
echo "chip=$C sysfs=$S"
gpiodetect | tee /tmp/det; grep -q "^$C \[gpio-sim" /tmp/det && ok "gpiodetect lists $C" || ko "gpiodetect"
gpioinfo "$C" | head -4
# input: the "outside world" drives line 1 through its simulated pull
sim-pull 1 up;   v=$(gpioget "$C" 1); [ "$v" = 1 ] && ok "pull-up   -> gpioget=1" || ko "pull-up -> gpioget=$v"
sim-pull 1 down; v=$(gpioget "$C" 1); [ "$v" = 0 ] && ok "pull-down -> gpioget=0" || ko "pull-down -> gpioget=$v"
# output: program drives line 3; read it back from the simulator's sysfs while held
gpioset --mode=signal "$C" 3=1 & p=$!; sleep 0.5
v=$(sim-value 3); [ "$v" = 1 ] && ok "gpioset 3=1 -> sysfs value=1" || ko "gpioset 3=1 -> sysfs value=$v"
kill $p; wait $p 2>/dev/null
gpioset --mode=signal "$C" 3=0 & p=$!; sleep 0.5
v=$(sim-value 3); [ "$v" = 0 ] && ok "gpioset 3=0 -> sysfs value=0" || ko "gpioset 3=0 -> sysfs value=$v"
kill $p; wait $p 2>/dev/null
# edge: gpiomon sees a rising edge caused by the simulated pull (irq_sim path)
sim-pull 2 down
gpiomon --num-events=1 --rising-edge "$C" 2 >/tmp/mon 2>&1 & p=$!; sleep 0.5
sim-pull 2 up
i=0; while kill -0 $p 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
kill $p 2>/dev/null; cat /tmp/mon
grep -q 'RISING EDGE offset: 2' /tmp/mon && ok "gpiomon saw rising edge on line 2" || ko "gpiomon"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
EOF
chmod +x "$ROOT/gpio-sim-vm/selftest"

# /init: PID 1 inside the VM.
cat >"$ROOT/init" <<'EOF'
#!/bin/sh
export PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin HOME=/root
/bin/busybox mount -t proc proc /proc
/bin/busybox --install -s
mount -t devtmpfs devtmpfs /dev 2>/dev/null
exec </dev/null >/dev/console 2>&1
mount -t sysfs sysfs /sys
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
echo; echo GPIO_SIM_VM_INIT_STARTED
finish() { echo; echo "GPIO_SIM_VM_EXIT=$1"; sync; poweroff -f; sleep 5; exit "$1"; }
. /gpio-sim-vm/config
M=/lib/modules/gpio-sim-vm
insmod $M/configfs.ko || finish 125
mount -t configfs configfs /sys/kernel/config || finish 125
insmod $M/irq_sim.ko || finish 125
insmod $M/gpio-sim.ko || finish 125
if [ -n "$MOCKUP" ]; then insmod $M/gpio-mockup.ko gpio_mockup_ranges="$MOCKUP" || finish 125; fi
if [ -n "$I2C_STUB" ]; then
  [ -f $M/i2c-core.ko ] && { insmod $M/i2c-core.ko || finish 125; }
  insmod $M/i2c-dev.ko || finish 125
  insmod $M/i2c-stub.ko chip_addr="$I2C_STUB" || finish 125
  for n in /sys/class/i2c-dev/*; do
    grep -q 'SMBus stub' "$n/name" 2>/dev/null && export I2C_STUB_BUS=/dev/$(basename "$n")
  done
  [ -c "${I2C_STUB_BUS:-/nonexistent}" ] || { echo "i2c-stub: no bus device"; ls /sys/class/i2c-dev; finish 125; }
fi
for m in evdev uinput; do [ -f $M/$m.ko ] && { insmod $M/$m.ko || finish 125; }; done
if [ -e /gpio-sim-vm/udev ]; then
  mkdir -p /run/udev
  /lib/systemd/systemd-udevd --daemon || finish 125
  udevadm trigger --action=add --subsystem-match=input >/dev/null 2>&1
  udevadm settle --timeout=20 || echo "gpio-sim-vm: udevadm settle timed out"
fi
if [ "$USB_SERIAL" = 1 ]; then
  # After udevd started, so it sees the port come (Documentation/usb/gadget_configfs.rst).
  while read -r m; do insmod $M/usb/$m.ko || finish 125; done < $M/usb/order
  G=/sys/kernel/config/usb_gadget/matrix
  mkdir $G $G/strings/0x409 $G/configs/c.1 $G/functions/acm.usb0 || finish 125
  echo 0x1d6b > $G/idVendor; echo 0x0104 > $G/idProduct
  echo wodclock > $G/strings/0x409/manufacturer
  echo "HIL Matrix" > $G/strings/0x409/product
  echo HIL0001 > $G/strings/0x409/serialnumber
  ln -s $G/functions/acm.usb0 $G/configs/c.1/ || finish 125
  usb-plug || finish 125
  i=0; while [ ! -c /dev/ttyACM0 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
  [ -c /dev/ttyACM0 ] && [ -c /dev/ttyGS0 ] || { echo "usb-serial: no ttyACM0/ttyGS0"; finish 125; }
  export USB_SERIAL_HOST=/dev/ttyACM0 USB_SERIAL_GADGET=/dev/ttyGS0 USB_SERIAL_ID=1d6b:0104:HIL0001
  if [ -e /gpio-sim-vm/udev ]; then
    udevadm settle --timeout=20 || echo "gpio-sim-vm: udevadm settle timed out"
    export USB_SERIAL_BY_ID=/dev/serial/by-id/usb-wodclock_HIL_Matrix_HIL0001-if00
    [ -L "$USB_SERIAL_BY_ID" ] || { echo "usb-serial: no $USB_SERIAL_BY_ID"; finish 125; }
  fi
fi
if [ "$SOUND" = 1 ]; then
  while read -r m; do insmod $M/sound/$m.ko || finish 125; done < $M/sound/order
  i=0; while [ ! -c /dev/snd/controlC0 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
  grep -q Loopback /proc/asound/cards || { echo "sound: no Loopback card"; cat /proc/asound/cards; finish 125; }
fi
# One gpio-sim device with one bank per --banks entry.
D=/sys/kernel/config/gpio-sim/gpio-sim-vm
mkdir $D || finish 125
b=0
for n in $(echo "$BANKS" | tr , ' '); do
  mkdir $D/bank$b && echo $n > $D/bank$b/num_lines && echo "gpio-sim-bank$b" > $D/bank$b/label || finish 125
  b=$((b+1))
done
while IFS= read -r spec; do   # B:O=NAME
  bo=${spec%%=*}; name=${spec#*=}; bb=${bo%%:*}; oo=${bo#*:}
  mkdir -p $D/bank$bb/line$oo && echo "$name" > $D/bank$bb/line$oo/name || finish 125
done < /gpio-sim-vm/line-names
echo 1 > $D/live || { echo "gpio-sim: could not set live"; finish 125; }
dev=$(cat $D/dev_name)
export GPIO_SIM_VM=1 GPIO_SIM_BANKS=$b GPIO_SIM_DEV=$dev
i=0
while [ $i -lt $b ]; do
  c=$(cat $D/bank$i/chip_name)
  export GPIO_SIM_CHIP$i=$c GPIO_SIM_SYSFS$i=/sys/devices/platform/$dev/$c GPIO_SIM_LABEL$i=gpio-sim-bank$i
  [ -c /dev/$c ] || { echo "missing /dev/$c"; finish 125; }
  i=$((i+1))
done
export GPIO_SIM_CHIP=$GPIO_SIM_CHIP0 GPIO_SIM_SYSFS=$GPIO_SIM_SYSFS0 GPIO_SIM_LABEL=$GPIO_SIM_LABEL0
if [ "$OUTPUT" = 1 ]; then
  stty -F /dev/ttyS1 raw -echo || { echo "output: cannot set /dev/ttyS1 raw"; finish 125; }
  export GPIO_SIM_VM_OUTPUT=/dev/ttyS1
fi
. /gpio-sim-vm/env
cd "$WORKDIR" || finish 125
sh /gpio-sim-vm/cmd </dev/null
finish $?
EOF
chmod +x "$ROOT/init"

# Uncompressed cpio: under TCG, inflating a gzip'ed initramfs is slow emulated
# work, while qemu loads the raw file at host speed.
( cd "$ROOT" && find . -print0 | cpio --null -o -H newc -R 0:0 --quiet ) >"$WORK/initrd.cpio"

# ------------------------------------------------------------- accelerator --
# kvm only where hardware virtualization is visible. On hosts whose /dev/kvm is
# kvm_pvm (PVM, as on cloud VMs without nested virtualisation) a stock kernel
# cannot boot: qemu -cpu host aborts with "failed to set MSR 0x10a", and with
# the MSR masked the guest hangs in its first instructions, printing nothing.
KVM_FALLBACK=0
if [ "$ACCEL" = auto ]; then
  ACCEL=tcg
  if [ -r /dev/kvm ] && [ -w /dev/kvm ] && grep -qwE 'vmx|svm' /proc/cpuinfo && [ ! -d /sys/module/kvm_pvm ]; then
    ACCEL=kvm; KVM_FALLBACK=1   # if kvm cannot boot, retry once under tcg
  fi
fi

# Prefer the uncompressed vmlinux (PVH direct boot): it skips SeaBIOS' bzImage
# path and the in-guest xz decompression, which costs ~5 s under TCG.
KERNEL="$CACHE/vmlinuz"
[ -s "$CACHE/vmlinux" ] && KERNEL="$CACHE/vmlinux"

# ------------------------------------------------------------------- boot ---
CONSOLE="$WORK/console.log"
# no_timer_check: under emulation on a busy host the kernel's early check that the timer's
# interrupt arrives can time out and panic ("IO-APIC + timer doesn't work!");
# admin-guide/kernel-parameters.txt: "no_timer_check [X86,APIC] Disables the code which tests
# for broken timer IRQ sources", which is what virtual machines are booted with.
boot_vm() {  # boot_vm ACCEL BOOT_TIMEOUT -> sets RESULT QRC ELAPSED
  local accel=$1 boot_to=$2 now el T0 T1 cpu
  if [ "$accel" = kvm ]; then cpu=(-accel kvm -cpu host); else cpu=(-accel tcg -cpu max); fi
  : >"$CONSOLE"; : >"$WORK/qemu.out"
  local output_port=()
  if [ -n "$OUTPUT" ]; then : >"$OUTPUT"; output_port=(-serial "file:$OUTPUT"); fi
  local qemu=(qemu-system-x86_64 "${cpu[@]}" -machine pc -m "$MEM" -smp "$SMP"
        -nodefaults -no-user-config -display none -monitor none -nic none
        -serial "file:$CONSOLE" "${output_port[@]}" -no-reboot -pidfile "$QPID_FILE"
        -kernel "$KERNEL" -initrd "$WORK/initrd.cpio"
        -append "console=ttyS0 quiet loglevel=3 panic=-1 mitigations=off no_timer_check rdinit=/init $APPEND")
  log "booting $KREL ($accel, $(basename "$KERNEL"), ${MEM}M, smp $SMP, timeout ${TIMEOUT}s, initramfs $(du -h "$WORK/initrd.cpio" | cut -f1))"
  T0=$(date +%s.%N)
  "${qemu[@]}" </dev/null >"$WORK/qemu.out" 2>&1 &
  QEMU_PID=$!
  if [ "$QUIET" = 0 ]; then   # stream the console while it runs
    tail -n +1 -F -s 0.1 --pid="$QEMU_PID" "$CONSOLE" 2>/dev/null | sed -u 's/\r$//' &
    TAIL_PID=$!
  fi
  RESULT=""   # "", timeout, boot-timeout
  while kill -0 "$QEMU_PID" 2>/dev/null; do
    now=$(date +%s.%N)
    el=$(awk -v a="$T0" -v b="$now" 'BEGIN{printf "%d", b-a}')
    if [ "$el" -ge "$TIMEOUT" ]; then RESULT=timeout; break; fi
    if [ "$el" -ge "$boot_to" ] && ! grep -aq "$MARK_BOOT" "$CONSOLE"; then RESULT=boot-timeout; break; fi
    sleep 0.2
  done
  if [ -n "$RESULT" ]; then
    kill "$QEMU_PID" 2>/dev/null || true; sleep 1; kill -9 "$QEMU_PID" 2>/dev/null || true
  fi
  QRC=0; wait "$QEMU_PID" 2>/dev/null || QRC=$?
  T1=$(date +%s.%N)
  if [ -n "${TAIL_PID:-}" ]; then wait "$TAIL_PID" 2>/dev/null || true; TAIL_PID=""; fi
  rm -f "$QPID_FILE"
  ELAPSED=$(awk -v a="$T0" -v b="$T1" 'BEGIN{printf "%.1f", b-a}')
}

if [ "$KVM_FALLBACK" = 1 ]; then
  boot_vm kvm 30
  if ! grep -aq "$MARK_BOOT" "$CONSOLE"; then
    log "kvm did not boot (qemu status $QRC${RESULT:+, $RESULT}): $(head -c 300 "$WORK/qemu.out" | tr '\n' ' ')"
    log "retrying under tcg"; ACCEL=tcg
    boot_vm tcg "$BOOT_TIMEOUT"
  fi
else
  boot_vm "$ACCEL" "$BOOT_TIMEOUT"
fi
[ -n "$LOGFILE" ] && tr -d '\r' <"$CONSOLE" >"$LOGFILE"

RC=$(tr -d '\r' <"$CONSOLE" | sed -n "s/^$MARK_EXIT=\([0-9][0-9]*\)\$/\1/p" | tail -1)
if [ -n "$RC" ]; then
  [ "$QUIET" = 1 ] && [ "$RC" != 0 ] && tr -d '\r' <"$CONSOLE" >&2
  log "VM finished in ${ELAPSED}s ($ACCEL): command exit status $RC"
  exit "$RC"
fi
[ "$QUIET" = 1 ] && tr -d '\r' <"$CONSOLE" >&2
[ -s "$WORK/qemu.out" ] && { log "qemu said:"; cat "$WORK/qemu.out" >&2; }
case "$RESULT" in
  timeout) log "timed out after ${TIMEOUT}s ($ACCEL) without a result"; exit 124 ;;
  boot-timeout) log "VM did not reach /init within ${BOOT_TIMEOUT}s ($ACCEL)"; exit 124 ;;
  *) log "VM ended after ${ELAPSED}s (qemu status $QRC, $ACCEL) without a result marker"; exit 125 ;;
esac
