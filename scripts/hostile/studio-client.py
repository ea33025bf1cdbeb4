"""The studio's owner and a hostile client, for scripts/hostile/studio-server.sh.

usage: python3 studio-client.py PORT COMMAND ...   (the token, if any, in $STUDIO_TOKEN: an
environment is not in `ps`, and the script checks `ps` for the token)

  state                      the snapshot, as JSON
  post PATH JSON             POST /api/PATH; prints the status
  wait CONDITION [SECONDS]   polls the state until the Python expression on `s` holds
  flood N                    opens N idle connections (no request, no token), then times the
                             owner's GET /api/state on a new one, then waits (up to 30 s) for the
                             server to close the idle ones; prints `opened N`, `owner STATUS
                             SECONDS`, `closed N SECONDS`
  race ROUNDS                POSTs record and export at the same instant ROUNDS times, undoing
                             whichever started; prints `rounds N both N record N export N`
"""
import http.client
import json
import os
import resource
import select
import socket
import sys
import threading
import time

port = int(sys.argv[1])
token = os.environ.get("STUDIO_TOKEN", "")


def request(method, path, body=None, timeout=5):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"X-VRender-Token": token} if token else {}
    if body is not None:
        headers["Content-Type"] = "application/json"
    connection.request(method, path, body=body, headers=headers)
    answer = connection.getresponse()
    data = answer.read()
    connection.close()
    return answer.status, data


def state():
    return json.loads(request("GET", "/api/state")[1])


def post(path, body):
    return request("POST", "/api/" + path, body=body)[0]


def wait(condition, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            s = state()
            if eval(condition, {}, {"s": s}):
                return True
        except (OSError, ValueError, http.client.HTTPException):
            pass
        time.sleep(0.1)
    print("the studio never reached: " + condition, file=sys.stderr)
    return False


def flood(count):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = count + 64
    if soft < wanted:
        if hard != resource.RLIM_INFINITY and hard < wanted:
            sys.exit(f"flood: this shell allows {hard} files, {wanted} are needed (ulimit -Hn)")
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    idle = []
    for _ in range(count):
        connection = socket.create_connection(("127.0.0.1", port), timeout=10)
        connection.setblocking(False)
        idle.append(connection)
    print(f"opened {len(idle)}", flush=True)
    start = time.monotonic()
    try:
        status = request("GET", "/api/state")[0]
    except (OSError, http.client.HTTPException) as error:
        status = f"failed:{type(error).__name__}"
    print(f"owner {status} {time.monotonic() - start:.3f}", flush=True)
    start = time.monotonic()
    open_ones, last = {connection.fileno(): connection for connection in idle}, 0.0
    poller = select.poll()
    for descriptor in open_ones:
        poller.register(descriptor, select.POLLIN)
    while open_ones and time.monotonic() - start < 30:
        for descriptor, _ in poller.poll(500):
            connection = open_ones[descriptor]
            try:
                ended = connection.recv(4096) == b""
            except BlockingIOError:
                ended = False
            except OSError:
                ended = True
            if ended:
                poller.unregister(descriptor)
                del open_ones[descriptor]
                connection.close()
                last = time.monotonic() - start
    print(f"closed {count - len(open_ones)} {last:.1f}", flush=True)


def race(rounds):
    both = records = exports = 0
    for _ in range(rounds):
        takes = len(state()["takes"])
        statuses = [None, None]
        barrier = threading.Barrier(2)

        def ask(index, path, body):
            barrier.wait()
            statuses[index] = post(path, body)

        threads = [threading.Thread(target=ask, args=(0, "record", '{"record":true}')),
                   threading.Thread(target=ask, args=(1, "export", '{"filter":""}'))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        recorded, exported = statuses[0] == 200, statuses[1] == 200
        both += recorded and exported
        if recorded:
            records += 1
            # A stop under 0.5 s into the take is a double press, ignored (TakeScheduler.shortestStop).
            wait('s["recording"] and s["takeSeconds"] > 0.6', 20)
            post("record", '{"record":false}')
            wait(f'not s["recording"] and len(s["takes"]) == {takes + 1}', 30)
        if exported:
            exports += 1
            post("export/cancel", "{}")
            wait('s["export"] is not None and s["export"]["state"] != "running"', 30)
    print(f"rounds {rounds} both {both} record {records} export {exports}", flush=True)


command = sys.argv[2]
if command == "state":
    print(json.dumps(state()))
elif command == "post":
    print(post(sys.argv[3], sys.argv[4]))
elif command == "wait":
    sys.exit(0 if wait(sys.argv[3], float(sys.argv[4]) if len(sys.argv) > 4 else 60) else 1)
elif command == "flood":
    flood(int(sys.argv[3]))
elif command == "race":
    race(int(sys.argv[3]))
else:
    sys.exit(f"unknown command {command}")
