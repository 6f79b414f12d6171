# What `make install` and the Debian package's postinst say once the clock is installed: who may
# use wodclockctl, in the words wodclockctl itself uses when it finds the socket closed to a
# user (Sources/WodclockClient/ConnectionAdvice.swift). POSIX sh: the postinst inlines this
# file (packaging/deb/build.sh), `make install` sources it.
wodclock_group_advice() {
  # The login user who ran sudo, where there is one; else the usual Raspberry Pi login.
  login=${SUDO_USER:-}
  if [ -z "$login" ] || [ "$login" = root ]; then login=pi; fi
  echo "wodclock: the clock runs as the system user 'wodclock'; wodclockctl reaches it through"
  echo "a socket open to the group 'wodclock'."
  if id -nG "$login" 2>/dev/null | tr ' ' '\n' | grep -qx wodclock; then
    echo "User '$login' is in that group: wodclockctl works in a login started since joining."
  else
    echo "Let the user use the clock with"
    echo "  sudo adduser $login wodclock"
    echo "then log out and in again."
  fi
}
