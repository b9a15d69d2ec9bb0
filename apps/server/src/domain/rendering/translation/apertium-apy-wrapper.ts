// The Python that runs the embedded APY (Debian's apertium-apy 0.11.7, tornado 6.2), the one place
// that reaches into APY. APY has no option, environment variable or config key for the address
// (`main()` ends in `http_server.bind(args.port)`: every interface and family), so this does what
// its `main()` does with tornado's public API and 127.0.0.1:
//   - APY: `apertium_apy.apy`'s module functions `check_utf8()`, `parse_args(argv)` (attributes
//     `port`, `num_processes`, `ssl_cert`, `ssl_key`), `setup_logging(args)`,
//     `setup_application(args)` returning a `tornado.web.Application`, and `sig_handler`;
//   - tornado (public, documented): `netutil.bind_sockets(port, address=)`,
//     `httpserver.HTTPServer(app).add_sockets(sockets)`, `ioloop.IOLoop.current().start()`.
// When any of that is missing or different, the wrapper exits APY_WRAPPER_REFUSED with a line on
// stderr and no APY starts (never one on every interface). Guarded by test/apertium.test.ts (the
// started APY's only listener is 127.0.0.1, read from /proc/net/tcp) and
// test/apertium-wrapper.test.ts (the refusals, with stand-in `apertium_apy` modules).
// Besides, it gets SIGTERM when our process dies however it dies (Linux's parent-death signal),
// and on its way out it ends its process group, i.e. the translation pipelines it started.

/** The wrapper's exit status when APY or tornado is not what it was written for. */
export const APY_WRAPPER_REFUSED = 3;

import { PYTHON_BOUND_TO_PARENT } from '../../../platform/process';

/** Run as `python3 -c APY_WRAPPER <our pid> <apertium-apy's arguments…>`. */
export const APY_WRAPPER = `
import atexit, os, signal, sys
${PYTHON_BOUND_TO_PARENT}def end_group():
    if os.getpgrp() == os.getpid():
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        os.killpg(0, signal.SIGTERM)
atexit.register(end_group)
def refuse(why):
    sys.stderr.write('apy-wrapper: %s; APY not started (it would listen on every interface)\\n' % why)
    sys.stderr.flush()
    sys.exit(${APY_WRAPPER_REFUSED})
sys.argv = ['apertium-apy'] + sys.argv[2:]
try:
    import tornado.httpserver, tornado.ioloop, tornado.netutil, tornado.web
    from apertium_apy import apy
except ImportError as error:
    refuse('cannot import %s' % error)
version = getattr(apy, '__version__', 'of unknown version')
missing = [name for name in ('check_utf8', 'parse_args', 'setup_logging', 'setup_application', 'sig_handler')
           if not callable(getattr(apy, name, None))]
if missing:
    refuse('apertium_apy.apy %s has no %s()' % (version, '(), '.join(missing)))
apy.check_utf8()
args = apy.parse_args(sys.argv[1:])
if not isinstance(getattr(args, 'port', None), int):
    refuse('apertium_apy.apy %s parse_args() gave no port' % version)
if getattr(args, 'num_processes', None) != 1 or getattr(args, 'ssl_cert', None) or getattr(args, 'ssl_key', None):
    refuse('the wrapper serves one process without TLS (-j 1, no -c/-k)')
apy.setup_logging(args)
application = apy.setup_application(args)
if not isinstance(application, tornado.web.Application):
    refuse('apertium_apy.apy %s setup_application() gave %s, not a tornado.web.Application'
           % (version, type(application).__name__))
sockets = tornado.netutil.bind_sockets(args.port, address='127.0.0.1')
if not sockets or any(sock.getsockname()[0] != '127.0.0.1' for sock in sockets):
    refuse('tornado.netutil.bind_sockets() bound %s' % [sock.getsockname() for sock in sockets])
tornado.httpserver.HTTPServer(application).add_sockets(sockets)
signal.signal(signal.SIGTERM, apy.sig_handler)
signal.signal(signal.SIGINT, apy.sig_handler)
tornado.ioloop.IOLoop.current().start()
`;
