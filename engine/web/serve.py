"""Serves build/web/ on 127.0.0.1 with the headers that make the page
cross-origin isolated (COOP/COEP), so that the threads build can use
SharedArrayBuffer. Usage: serve.py DIR [PORT] [--plain] (PORT 0 picks a
free one; --plain leaves the headers out, as a server that does not set
them would: the page then runs the single-threaded build)."""
import functools
import http.server
import sys


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".js": "text/javascript", ".mjs": "text/javascript",
                      ".wasm": "application/wasm", ".svg": "image/svg+xml"}

    isolate = True

    def end_headers(self):
        if self.isolate:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, *args):
        pass


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "build/web"
    port = int(sys.argv[2]) if len(sys.argv) > 2 else 8960
    Handler.isolate = "--plain" not in sys.argv[3:]
    handler = functools.partial(Handler, directory=root)
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as httpd:
        print(f"Rokade: http://127.0.0.1:{httpd.server_address[1]}/", flush=True)
        httpd.serve_forever()


if __name__ == "__main__":
    main()
