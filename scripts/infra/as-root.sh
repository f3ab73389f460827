# Sourced by the install scripts: sets `as_root`, the prefix that runs a command as root (nothing
# when already root, else sudo), or stops the script saying what it needed root for ($1).
if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "$(basename "$0"): need root or sudo to $1" >&2
  exit 1
fi
