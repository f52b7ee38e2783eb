# Debian source packages for the scripts that build public code (scripts/public-suites.sh,
# scripts/bench-mpi.sh), fetched as a user would: `apt-get source` from the mirrors this machine's
# apt already uses. No mirror is named here; the deb-src entries are derived from the machine's own
# deb entries. Sourced, not run.
#
#   debian_source PACKAGE VERSION DIR [--tar-only] [--dsc-only]
#     Downloads files of source package PACKAGE at VERSION into DIR with `apt-get source
#     --download-only PACKAGE=VERSION`, run in a temporary directory (never in the working tree),
#     then moved into DIR: with --tar-only its upstream tarballs, with --dsc-only its .dsc, with
#     both both, with neither all its files. apt checks every file against the archive's signed
#     index. Prints why on stderr and returns 1 if it cannot.
#
# Where apt has no deb-src entry (Debian's images ship none), and the script runs as root, it adds
# one for the run: a file in /etc/apt/sources.list.d/ that repeats each enabled `deb` entry of
# /etc/apt/sources.list and /etc/apt/sources.list.d/*.list and *.sources as `deb-src`, updates the
# package lists of that file alone, fetches, and removes the file again, also when interrupted. It
# is removed because a deb-src entry left behind would make every later `apt-get update` on the
# machine download the source indexes too, for every user of it; the source lists already fetched
# stay in /var/lib/apt/lists until the next `apt-get update` drops them. Not as root, it says which
# entry to add. Where a deb-src entry exists but its lists are missing or stale, root updates them.

debian_source() {
  local pkg=$1 ver=$2 dir=$3
  shift 3
  local only=("$@")
  mkdir -p "$dir" || return 1
  if _debian_source_get "$pkg" "$ver" "$dir" "${only[@]}" 2>/dev/null; then
    return 0
  fi
  if [ "$(id -u)" != 0 ]; then
    if _debian_source_has_deb_src; then
      echo "apt-get source $pkg=$ver failed: run 'apt-get update' as root (or run this script as root), then again" >&2
    else
      echo "apt-get source $pkg=$ver needs a deb-src entry: add one beside each deb entry of /etc/apt/sources.list.d" \
        "(Types: deb deb-src) and run 'apt-get update', or run this script as root, which adds one for the run" >&2
    fi
    return 1
  fi
  if _debian_source_has_deb_src; then
    echo "updating apt's package lists for $pkg's source..." >&2
    apt-get update -qq >&2 || { echo "apt-get update failed" >&2; return 1; }
    _debian_source_get "$pkg" "$ver" "$dir" "${only[@]}" && return 0
    echo "apt-get source $pkg=$ver failed: is that version in this machine's Debian release?" >&2
    return 1
  fi
  # No deb-src at all: add one for the run, in a subshell whose exit removes it.
  (
    entry=/etc/apt/sources.list.d/cohort-deb-src-$$.sources
    trap 'rm -f "$entry"' EXIT
    trap 'exit 130' INT TERM
    _debian_source_entries > "$entry.part" && mv "$entry.part" "$entry" || { rm -f "$entry.part"; exit 1; }
    if [ ! -s "$entry" ]; then
      echo "no deb entry in /etc/apt/sources.list or /etc/apt/sources.list.d to derive a deb-src entry from" >&2
      exit 1
    fi
    echo "adding deb-src entries for the run ($entry) and updating their package lists..." >&2
    # Only the new entry's lists: the others are left as they are (and not cleaned up).
    apt-get update -qq -o Dir::Etc::SourceList="$entry" -o Dir::Etc::SourceParts=- \
      -o APT::Get::List-Cleanup=0 >&2 || { echo "apt-get update of the deb-src entries failed" >&2; exit 1; }
    _debian_source_get "$pkg" "$ver" "$dir" "${only[@]}" && exit 0
    echo "apt-get source $pkg=$ver failed: is that version in this machine's Debian release?" >&2
    exit 1
  )
}

# True if apt knows at least one deb-src entry.
_debian_source_has_deb_src() {
  apt-get indextargets --no-release-info 'Created-By: Sources' 2>/dev/null | grep -q .
}

# apt-get source into a fresh temporary directory, once per option given (or once without one),
# then the files into DIR.
_debian_source_get() {
  local pkg=$1 ver=$2 dir=$3 tmp rc=0 opt
  shift 3
  [ $# -gt 0 ] || set -- ""
  tmp=$(mktemp -d) || return 1
  # apt downloads as its sandbox user where it can: let it write here.
  if [ "$(id -u)" = 0 ] && id _apt >/dev/null 2>&1; then chown _apt "$tmp"; fi
  for opt in "$@"; do
    (cd "$tmp" && apt-get source --download-only -qq ${opt:+"$opt"} "$pkg=$ver" >&2) || { rc=1; break; }
  done
  if [ "$rc" = 0 ]; then
    local f
    for f in "$tmp"/*; do
      [ -f "$f" ] && mv -f "$f" "$dir/" || rc=1
    done
  fi
  rm -rf "$tmp"
  return "$rc"
}

# The machine's enabled deb entries as deb-src entries, in deb822 form, on stdout.
_debian_source_entries() {
  local f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    # One-line form: "deb [options] URI suite [component...]".
    sed -n 's/^[[:space:]]*deb[[:space:]]\+//p' "$f" | sed 's/[[:space:]]*#.*$//' | while read -r line; do
      local opts="" uri suite comps
      if [[ $line == \[* ]]; then opts=${line%%]*}; opts=${opts#[}; line=${line#*]}; fi
      read -r uri suite comps <<< "$line"
      [ -n "$uri" ] && [ -n "$suite" ] || continue
      printf 'Types: deb-src\nURIs: %s\nSuites: %s\n' "$uri" "$suite"
      [ -n "$comps" ] && printf 'Components: %s\n' "$comps"
      local o
      for o in $opts; do
        case $o in
          signed-by=*) printf 'Signed-By: %s\n' "${o#*=}" ;;
          trusted=*) printf 'Trusted: %s\n' "${o#*=}" ;;
        esac
      done
      printf '\n'
    done
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    # deb822 form: every stanza whose Types has deb, not disabled, again with Types: deb-src.
    awk '
      function flush() {
        if (n && deb && !off) { for (i = 1; i <= n; i++) print (i == t ? "Types: deb-src" : s[i]); print "" }
        n = 0; deb = 0; off = 0; t = 0
      }
      /^[[:space:]]*$/ { flush(); next }
      /^#/ { next }
      { s[++n] = $0 }
      tolower($1) == "types:" { t = n; for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1 }
      tolower($1) == "enabled:" && tolower($2) == "no" { off = 1 }
      END { flush() }
    ' "$f"
  done
}
