# Sourced first by each script here (`. "$(dirname "$0")/help.bash"`): with -h or --help as the first argument,
# prints the script's header comment (its documentation) and exits 0 before anything runs.
case "${1:-}" in
-h | --help)
    sed -n '2,${/^#/!q;s/^# \{0,1\}//;p;}' "$0"
    exit 0
    ;;
esac
