"""A UCI engine on a pipe, shared by the scripts of bench/: start it, send a
line, read its lines up to one that starts with a prefix, stop it."""
import subprocess
import sys


class UciPipe:
    def __init__(self, argv, stderr=None):
        self.name = " ".join(argv)
        try:
            self.p = subprocess.Popen(argv, stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=stderr,
                                      text=True, bufsize=1)
        except OSError as e:
            sys.exit("cannot start '%s': %s" % (self.name, e))

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        """The lines (stripped) up to and with the first that starts with
        prefix; exits with a message if the engine ends first."""
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("'%s' ended before '%s'" % (self.name, prefix))
            line = line.strip()
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def quit(self, timeout=5):
        try:
            self.send("quit")
            self.p.wait(timeout=timeout)
        except (OSError, subprocess.TimeoutExpired):
            self.p.kill()
