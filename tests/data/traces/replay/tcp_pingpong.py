# A ping-pong over loopback TCP: the parent (server) and its forked child (client) exchange one
# byte N times each way (TCP_NODELAY). Each wakeup runs in the sender's softirq (NET_RX).
# usage: python3 tcp_pingpong.py N
import socket, os, sys
N=int(sys.argv[1])
s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR,1); s.bind(('127.0.0.1',0)); s.listen(1)
port=s.getsockname()[1]
if os.fork()==0:
    c=socket.socket(); c.connect(('127.0.0.1',port)); c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY,1)
    for i in range(N): c.sendall(b'x'); c.recv(1)
    os._exit(0)
a,_=s.accept(); a.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY,1)
for i in range(N): a.recv(1); a.sendall(b'y')
os.wait()
