# Sourced by the install scripts. `require_root <script> <what>` sets the array as_root to the
# prefix that runs a command as root: nothing when this already is root, else sudo; without
# either, the script stops, saying what it needed root for.
require_root() {
  if [ "$(id -u)" -eq 0 ]; then
    as_root=()
  elif command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
  else
    echo "$1: need root or sudo to $2" >&2
    exit 1
  fi
}
