#!/usr/bin/env bash
# npm run cluster -- up|down|status: a real single-node Kubernetes cluster on this machine, for trying the k8s/
# manifests as they are (k8s/README.md, "Tried on a single-node cluster"). A machine that reaches no container
# registry cannot run kind or a distribution's installer, so everything is built from the registries it does reach:
# Kubernetes, etcd, CoreDNS, metrics-server and Traefik from their sources on the Go module proxy (cached by version),
# containerd, runc and the CNI plugins from Debian, the pause image from Kubernetes' own pause.c, and the images from
# `npm run stack -- images` (loaded into containerd). The control plane and the add-ons run on the host as processes;
# the pods run in containerd. `up` then applies k8s/local-data (the engines) and k8s/overlays/local (Rotunda) and
# prints the Ingress's address; `down` stops every process and removes the cluster's state. Runs as root.
set -euo pipefail

K8S_VERSION=v1.34.4 # the newest release that runs on cgroup v1 and Debian bookworm's containerd 1.6
K8S_LIBRARIES=v0.34.4 # the published k8s.io/* modules of that release, which its go.mod takes from staging/
ETCD_VERSION=v3.6.16
COREDNS_VERSION=v1.12.4
METRICS_SERVER_VERSION=v0.8.0
# The Ingress controller: ingress-nginx, which k8s/base's Ingresses are written for, was retired by its project in March
# 2026 and needs an OpenResty build no registry here serves; Traefik's Kubernetes Ingress provider serves their `nginx`
# class instead (add-ons.yaml), without their two nginx annotations (the body size, which Traefik does not limit, and
# the static Ingress's retry of a 404 on another pod). Not its ingress-nginx provider: in v3.6 that one keeps a
# terminating pod in rotation until the pod is gone; v3.7, which fixes it, needs modules the Go module proxy refuses.
TRAEFIK_VERSION=v3.6.12
PAUSE_IMAGE=registry.k8s.io/pause:3.10.1

REPO=$(cd "$(dirname "$0")/../../.." && pwd)
CACHE=${ROTUNDA_CLUSTER_CACHE:-/var/cache/rotunda/cluster}
BIN=$CACHE/bin/$K8S_VERSION
STATE=$REPO/.data/cluster
PKI=$STATE/pki
LOGS=$STATE/logs
KUBECONFIG_FILE=$STATE/admin.kubeconfig
POD_CIDR=10.244.0.0/16
NODE_POD_CIDR=10.244.0.0/24
SERVICE_CIDR=10.96.0.0/16
API_SERVICE_IP=10.96.0.1
INGRESS_PORT=${CLUSTER_INGRESS_PORT:-80}
NODE_NAME=$(hostname | tr '[:upper:]' '[:lower:]')
NODE_IP=$(ip -4 route get 1.1.1.1 | awk '{ for (i = 1; i <= NF; i++) if ($i == "src") print $(i + 1) }')
# The pods' name server: CoreDNS on the node's address (the node is every pod's gateway).
CLUSTER_DNS=$NODE_IP
IMAGES_TAG=local
# Debian's docker.io client, as `npm run stack` uses it (its builds run on the daemon's BuildKit).
DOCKER=/usr/bin/docker
ROTUNDA_IMAGES=(auth profile org post news notification gateway shell mf-feed mf-directory mf-organizations mf-profile)

say() { echo "cluster: $*"; }
kc() { "$BIN/kubectl" --kubeconfig "$KUBECONFIG_FILE" "$@"; }

# --- building the binaries ------------------------------------------------------------------------------------------

# Copies a module's source out of the module cache (read-only there) into the build folder and prints its path.
module_source() {
  local module=$1 version=$2 folder
  folder=$CACHE/src/${module//\//_}@$version
  if [ ! -d "$folder" ]; then
    local dir
    dir=$(GOFLAGS=-mod=mod go mod download -json "$module@$version" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
    [ -n "$dir" ] || { echo "cluster: go mod download $module@$version failed" >&2; exit 1; }
    mkdir -p "$(dirname "$folder")"
    cp -r "$dir" "$folder.partial"
    chmod -R u+w "$folder.partial"
    mv "$folder.partial" "$folder"
  fi
  echo "$folder"
}

build_binaries() {
  [ -x "$BIN/traefik" ] && return
  mkdir -p "$BIN"
  export GOFLAGS=-mod=mod CGO_ENABLED=0 GOWORK=off
  local started=$SECONDS src
  src=$(module_source k8s.io/kubernetes "$K8S_VERSION")
  # The module's go.mod points its k8s.io/* libraries at staging/, which a module download does not carry.
  sed -i -E "s#(k8s.io/[a-z-]+) => ./staging/src/k8s.io/[a-z-]+#\\1 => \\1 $K8S_LIBRARIES#" "$src/go.mod"
  local v=k8s.io/component-base/version
  local ldflags
  ldflags="-s -w -X $v.gitVersion=$K8S_VERSION -X $v.gitMajor=1 -X $v.gitMinor=$(echo "$K8S_VERSION" | cut -d. -f2) -X $v.gitTreeState=clean"
  for command in kube-apiserver kube-controller-manager kube-scheduler kube-proxy kubelet kubectl; do
    [ -x "$BIN/$command" ] || (cd "$src" && go build -ldflags "$ldflags" -o "$BIN/$command" "./cmd/$command")
    say "built $command ($((SECONDS - started)) s)"
  done
  src=$(module_source go.etcd.io/etcd/server/v3 "$ETCD_VERSION")
  # As Kubernetes': the release's go.mod points at its sibling modules' folders.
  sed -i -E "s#(go.etcd.io/etcd/[a-z]+(/[a-z]+)?/v3) => \\.\\./[a-z0-9/]+#\\1 => \\1 $ETCD_VERSION#" "$src/go.mod"
  (cd "$src" && go build -ldflags "-s -w" -o "$BIN/etcd" .)
  src=$(module_source github.com/coredns/coredns "$COREDNS_VERSION")
  (cd "$src" && go build -ldflags "-s -w" -o "$BIN/coredns" .)
  src=$(module_source sigs.k8s.io/metrics-server "$METRICS_SERVER_VERSION")
  (cd "$src" && go build -ldflags "-s -w" -o "$BIN/metrics-server" ./cmd/metrics-server)
  src=$(module_source github.com/traefik/traefik/v3 "$TRAEFIK_VERSION")
  (cd "$src" && go build -ldflags "-s -w -X github.com/traefik/traefik/v3/pkg/version.Version=$TRAEFIK_VERSION" -o "$BIN/traefik" ./cmd/traefik)
  say "built the cluster's binaries in $((SECONDS - started)) s"
}

install_packages() {
  local missing=()
  command -v containerd >/dev/null || missing+=(containerd)
  command -v runc >/dev/null || missing+=(runc)
  [ -x /usr/lib/cni/bridge ] || missing+=(containernetworking-plugins)
  command -v conntrack >/dev/null || missing+=(conntrack)
  command -v iptables >/dev/null || missing+=(iptables)
  command -v openssl >/dev/null || missing+=(openssl)
  command -v gcc >/dev/null || missing+=(gcc libc6-dev)
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing Debian's ${missing[*]}"
    apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

# --- certificates and kubeconfigs -------------------------------------------------------------------------------------

certificate() { # name, subject, CA name, extensions
  local name=$1 subject=$2 ca=$3 extensions=$4
  openssl genrsa -out "$PKI/$name.key" 2048 2>/dev/null
  openssl req -new -key "$PKI/$name.key" -subj "$subject" -out "$PKI/$name.csr"
  printf '%s\n' "$extensions" >"$PKI/$name.ext"
  openssl x509 -req -in "$PKI/$name.csr" -CA "$PKI/$ca.crt" -CAkey "$PKI/$ca.key" -CAcreateserial -days 30 \
    -extfile "$PKI/$name.ext" -out "$PKI/$name.crt" 2>/dev/null
}

kubeconfig() { # file, certificate name
  cat >"$1" <<EOF
apiVersion: v1
kind: Config
clusters:
  - name: local
    cluster: { server: "https://127.0.0.1:6443", certificate-authority: "$PKI/ca.crt" }
users:
  - name: user
    user: { client-certificate: "$PKI/$2.crt", client-key: "$PKI/$2.key" }
contexts:
  - name: local
    context: { cluster: local, user: user }
current-context: local
EOF
}

make_pki() {
  [ -f "$PKI/admin.crt" ] && return
  mkdir -p "$PKI"
  for ca in ca front-proxy-ca; do
    openssl req -x509 -newkey rsa:2048 -nodes -keyout "$PKI/$ca.key" -out "$PKI/$ca.crt" -days 30 \
      -subj "/CN=$ca" -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
  done
  local client="extendedKeyUsage=clientAuth"
  certificate apiserver /CN=kube-apiserver ca "$(printf '%s\n' "extendedKeyUsage=serverAuth" \
    "subjectAltName=IP:$API_SERVICE_IP,IP:127.0.0.1,IP:$NODE_IP,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local")"
  certificate admin "/O=system:masters/CN=kubernetes-admin" ca "$client"
  certificate apiserver-kubelet-client "/O=system:masters/CN=kube-apiserver-kubelet-client" ca "$client"
  certificate kubelet "/O=system:nodes/CN=system:node:$NODE_NAME" ca "$client"
  certificate controller-manager /CN=system:kube-controller-manager ca "$client"
  certificate scheduler /CN=system:kube-scheduler ca "$client"
  certificate kube-proxy /CN=system:kube-proxy ca "$client"
  certificate front-proxy-client /CN=front-proxy-client front-proxy-ca "$client"
  openssl genrsa -out "$PKI/sa.key" 2048 2>/dev/null
  openssl rsa -in "$PKI/sa.key" -pubout -out "$PKI/sa.pub" 2>/dev/null
  for user in admin kubelet controller-manager scheduler kube-proxy; do kubeconfig "$STATE/$user.kubeconfig" "$user"; done
}

# --- processes ------------------------------------------------------------------------------------------------------

start() { # name, command...
  local name=$1
  shift
  nohup "$@" >"$LOGS/$name.log" 2>&1 &
  echo $! >"$STATE/pids/$name"
}

wait_for() { # description, seconds, command...
  local what=$1 seconds=$2
  shift 2
  local until=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -lt $until ] || { echo "cluster: $what did not come up within $seconds s (logs: $LOGS)" >&2; exit 1; }
    sleep 1
  done
}

containerd_config() {
  mkdir -p "$STATE/cni"
  cat >"$STATE/containerd.toml" <<EOF
version = 2
root = "$STATE/containerd/root"
state = "/run/rotunda-cluster/containerd"
[grpc]
  address = "/run/rotunda-cluster/containerd.sock"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "$PAUSE_IMAGE"
  # A virtual machine may withhold CAP_SYS_RESOURCE from root: pods' OOM scores then stay at or above the runtime's.
  restrict_oom_score_adj = true
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$STATE/cni"
EOF
  cat >"$STATE/cni/10-rotunda.conflist" <<EOF
{
  "cniVersion": "1.0.0",
  "name": "rotunda",
  "plugins": [
    { "type": "bridge", "bridge": "cni0", "isGateway": true, "ipMasq": true, "hairpinMode": true,
      "ipam": { "type": "host-local", "ranges": [[{ "subnet": "$NODE_POD_CIDR" }]], "routes": [{ "dst": "0.0.0.0/0" }] } },
    { "type": "portmap", "capabilities": { "portMappings": true } }
  ]
}
EOF
}

kubelet_config() {
  cat >"$STATE/kubelet.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
authentication:
  anonymous: { enabled: false }
  webhook: { enabled: true }
  x509: { clientCAFile: "$PKI/ca.crt" }
authorization: { mode: Webhook }
cgroupDriver: cgroupfs
clusterDomain: cluster.local
clusterDNS: ["$CLUSTER_DNS"]
containerRuntimeEndpoint: unix:///run/rotunda-cluster/containerd.sock
failSwapOn: false
podCIDR: "$NODE_POD_CIDR"
resolvConf: /etc/resolv.conf
serverTLSBootstrap: false
# The node's own processes (the control plane and the add-ons) run outside the pods on the same two cores.
systemReserved: { cpu: 200m, memory: 1Gi }
evictionHard: { memory.available: 500Mi, nodefs.available: 5%, imagefs.available: 5% }
EOF
}

build_pause_image() {
  ctrk images ls -q | grep -qx "$PAUSE_IMAGE" && return
  local src folder=$STATE/pause
  src=$(module_source k8s.io/kubernetes "$K8S_VERSION")
  mkdir -p "$folder"
  gcc -Os -static -o "$folder/pause" "$src/build/pause/linux/pause.c"
  printf 'FROM scratch\nCOPY pause /pause\nUSER 65535:65535\nENTRYPOINT ["/pause"]\n' >"$folder/Dockerfile"
  DOCKER_BUILDKIT=1 "$DOCKER" build -q -t "$PAUSE_IMAGE" "$folder" >/dev/null
  "$DOCKER" save "$PAUSE_IMAGE" | ctrk images import - >/dev/null
}

ctrk() { ctr --address /run/rotunda-cluster/containerd.sock -n k8s.io "$@"; }

# Rotunda's images and the engines' (as docker-compose.yml names them; k8s/local-data runs the same), from the
# machine's Docker into the cluster's containerd, which starts empty with each `up`.
load_images() {
  local images=()
  for name in "${ROTUNDA_IMAGES[@]}"; do images+=("rotunda/$name:$IMAGES_TAG"); done
  mapfile -t -O ${#images[@]} images < <(grep -ho 'image: [^ ]*' "$REPO/k8s/local-data/"*.yaml | awk '{ print $2 }' | sort -u)
  for image in "${images[@]}"; do
    "$DOCKER" image inspect "$image" >/dev/null 2>&1 || { echo "cluster: no image $image: run npm run stack -- images" >&2; exit 1; }
  done
  say "loading ${#images[@]} images into containerd"
  "$DOCKER" save "${images[@]}" | ctrk images import - >/dev/null
}

up() {
  [ "$(id -u)" -eq 0 ] || { echo "cluster: run as root" >&2; exit 1; }
  install_packages
  build_binaries
  mkdir -p "$STATE/pids" "$LOGS" /run/rotunda-cluster
  ln -sfn "$BIN/kubectl" "$STATE/kubectl"
  make_pki
  containerd_config
  kubelet_config
  modprobe br_netfilter 2>/dev/null || true
  sysctl -qw net.ipv4.ip_forward=1 net.bridge.bridge-nf-call-iptables=1 2>/dev/null || true
  # Docker's daemon (the stack's) drops forwarded packets by default; the pods' own range passes.
  iptables -C FORWARD -s "$POD_CIDR" -j ACCEPT 2>/dev/null || iptables -I FORWARD -s "$POD_CIDR" -j ACCEPT
  iptables -C FORWARD -d "$POD_CIDR" -j ACCEPT 2>/dev/null || iptables -I FORWARD -d "$POD_CIDR" -j ACCEPT

  say "starting containerd, etcd and the control plane"
  start containerd containerd --config "$STATE/containerd.toml"
  start etcd "$BIN/etcd" --data-dir "$STATE/etcd" --listen-client-urls http://127.0.0.1:2379 \
    --advertise-client-urls http://127.0.0.1:2379 --listen-peer-urls http://127.0.0.1:2380 --log-level warn
  wait_for etcd 60 curl -fsS http://127.0.0.1:2379/health
  start kube-apiserver "$BIN/kube-apiserver" --etcd-servers http://127.0.0.1:2379 \
    --advertise-address "$NODE_IP" --secure-port 6443 --service-cluster-ip-range "$SERVICE_CIDR" \
    --client-ca-file "$PKI/ca.crt" --tls-cert-file "$PKI/apiserver.crt" --tls-private-key-file "$PKI/apiserver.key" \
    --kubelet-client-certificate "$PKI/apiserver-kubelet-client.crt" --kubelet-client-key "$PKI/apiserver-kubelet-client.key" \
    --kubelet-preferred-address-types InternalIP \
    --service-account-issuer https://kubernetes.default.svc.cluster.local --service-account-key-file "$PKI/sa.pub" \
    --service-account-signing-key-file "$PKI/sa.key" --authorization-mode Node,RBAC \
    --enable-admission-plugins NodeRestriction --allow-privileged=true \
    --requestheader-client-ca-file "$PKI/front-proxy-ca.crt" --requestheader-allowed-names front-proxy-client \
    --requestheader-username-headers X-Remote-User --requestheader-group-headers X-Remote-Group \
    --requestheader-extra-headers-prefix X-Remote-Extra- --proxy-client-cert-file "$PKI/front-proxy-client.crt" \
    --proxy-client-key-file "$PKI/front-proxy-client.key" --enable-aggregator-routing=true
  wait_for kube-apiserver 120 kc get --raw /readyz
  start kube-controller-manager "$BIN/kube-controller-manager" --kubeconfig "$STATE/controller-manager.kubeconfig" \
    --authentication-kubeconfig "$STATE/controller-manager.kubeconfig" --authorization-kubeconfig "$STATE/controller-manager.kubeconfig" \
    --service-account-private-key-file "$PKI/sa.key" --root-ca-file "$PKI/ca.crt" --use-service-account-credentials \
    --cluster-signing-cert-file "$PKI/ca.crt" --cluster-signing-key-file "$PKI/ca.key" \
    --service-cluster-ip-range "$SERVICE_CIDR" --cluster-cidr "$POD_CIDR" --leader-elect=false \
    --horizontal-pod-autoscaler-sync-period 15s
  start kube-scheduler "$BIN/kube-scheduler" --kubeconfig "$STATE/scheduler.kubeconfig" \
    --authentication-kubeconfig "$STATE/scheduler.kubeconfig" --authorization-kubeconfig "$STATE/scheduler.kubeconfig" \
    --leader-elect=false
  wait_for containerd 60 ctrk version
  build_pause_image
  start kubelet "$BIN/kubelet" --config "$STATE/kubelet.yaml" --kubeconfig "$STATE/kubelet.kubeconfig" \
    --hostname-override "$NODE_NAME" --node-ip "$NODE_IP"
  start kube-proxy "$BIN/kube-proxy" --kubeconfig "$STATE/kube-proxy.kubeconfig" --cluster-cidr "$POD_CIDR" \
    --proxy-mode iptables --hostname-override "$NODE_NAME"
  wait_for "the node" 120 kc wait --for=condition=Ready "node/$NODE_NAME" --timeout=5s

  say "starting the add-ons: CoreDNS, metrics-server, Traefik"
  kc apply -f "$REPO/tools/stack/cluster/add-ons.yaml" >/dev/null
  cat >"$STATE/Corefile" <<EOF
.:53 {
  bind $CLUSTER_DNS
  errors
  kubernetes cluster.local in-addr.arpa ip6.arpa {
    kubeconfig $KUBECONFIG_FILE
    pods insecure
    fallthrough in-addr.arpa ip6.arpa
  }
  forward . /etc/resolv.conf
  cache 30
}
EOF
  start coredns "$BIN/coredns" -conf "$STATE/Corefile"
  # metrics-server answers the aggregated metrics API on the node's address (the add-ons' metrics-server Service
  # points there), reading each kubelet's resource metrics.
  # (Endpoints rather than an EndpointSlice: the aggregator reads Endpoints.)
  kc -n kube-system apply -f - >/dev/null 2>&1 <<EOF
apiVersion: v1
kind: Endpoints
metadata:
  name: metrics-server
subsets: [{ addresses: [{ ip: "$NODE_IP" }], ports: [{ name: https, port: 4443, protocol: TCP }] }]
EOF
  start metrics-server "$BIN/metrics-server" --kubeconfig "$KUBECONFIG_FILE" \
    --authentication-kubeconfig "$KUBECONFIG_FILE" --authorization-kubeconfig "$KUBECONFIG_FILE" \
    --bind-address "$NODE_IP" --secure-port 4443 --cert-dir "$STATE/metrics-server" \
    --kubelet-insecure-tls --kubelet-preferred-address-types InternalIP --metric-resolution 15s
  kc -n kube-system create token traefik --duration 24h >"$STATE/traefik.token"
  start traefik "$BIN/traefik" --entryPoints.web.address=":$INGRESS_PORT" \
    --providers.kubernetesIngress=true --providers.kubernetesIngress.ingressClass=nginx \
    --providers.kubernetesIngress.endpoint=https://127.0.0.1:6443 \
    --providers.kubernetesIngress.token="$STATE/traefik.token" \
    --providers.kubernetesIngress.certAuthFilePath="$PKI/ca.crt" --log.level=INFO

  load_images
  deploy
  say "Rotunda: http://rotunda.localhost:$INGRESS_PORT (kubectl: $BIN/kubectl --kubeconfig $KUBECONFIG_FILE)"
}

# The engines, then the migrate step, then everything (k8s/README.md, "Rolling out").
deploy() {
  local data=$REPO/k8s/local-data overlay=$REPO/k8s/overlays/local
  "$REPO/node_modules/.bin/node" "$REPO/tools/stack/src/cluster-secrets.ts"
  say "applying k8s/local-data (the engines)"
  kc kustomize --load-restrictor LoadRestrictionsNone "$data" | kc apply -f - >/dev/null
  kc -n rotunda-data rollout status deploy/postgres --timeout 5m >/dev/null
  say "migrating"
  kc -n rotunda delete job migrate --ignore-not-found >/dev/null
  kc apply -k "$overlay" -l rotunda/rollout-step=migrate >/dev/null
  kc -n rotunda wait --for=condition=complete job/migrate --timeout=15m >/dev/null
  say "applying k8s/overlays/local"
  kc apply -k "$overlay" >/dev/null
  for deployment in $(kc -n rotunda-data get deploy -o name) $(kc -n rotunda get deploy -o name); do
    local namespace=rotunda
    kc -n rotunda-data get "$deployment" >/dev/null 2>&1 && namespace=rotunda-data
    kc -n "$namespace" rollout status "$deployment" --timeout 15m >/dev/null
  done
  say "every Deployment is rolled out"
}

# Stops a process started by start() and waits for it to exit (SIGKILL after 30 s).
stop() {
  local pid
  pid=$(cat "$STATE/pids/$1" 2>/dev/null) || return 0
  kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || return 0; sleep 1; done
  kill -9 "$pid" 2>/dev/null || true
}

down() {
  for name in traefik metrics-server coredns kube-proxy kubelet kube-scheduler kube-controller-manager kube-apiserver etcd; do
    stop "$name"
  done
  # The pods' containers, then containerd itself.
  if [ -S /run/rotunda-cluster/containerd.sock ]; then
    for task in $(ctrk tasks ls -q 2>/dev/null); do ctrk tasks kill -s KILL "$task" >/dev/null 2>&1 || true; done
    sleep 2
  fi
  stop containerd
  pkill -9 -f "containerd-shim.*-address /run/rotunda-cluster/" 2>/dev/null || true
  # Whatever kubelet and containerd mounted for the pods (volumes, sandboxes' /dev/shm, overlay roots).
  grep -oE " (/var/lib/kubelet|/run/rotunda-cluster|$STATE)[^ ]*" /proc/mounts | sort -r | xargs -r -n1 umount -l 2>/dev/null || true
  ip link delete cni0 2>/dev/null || true
  # kubelet's cgroups (cgroup v1: one tree per controller), emptied with the pods.
  find /sys/fs/cgroup/*/kubepods* /sys/fs/cgroup/kubepods* -depth -type d -exec rmdir {} + 2>/dev/null || true
  # kube-proxy's and kubelet's chains (KUBE-*), with the rules that jump to them.
  for tables in iptables ip6tables; do
    for table in filter nat mangle; do
      $tables -t "$table" -S 2>/dev/null | grep -E '^-A (INPUT|OUTPUT|FORWARD|PREROUTING|POSTROUTING) .*-j KUBE-' |
        sed 's/^-A/-D/' | while read -r rule; do eval "$tables -t $table $rule" 2>/dev/null || true; done || true
      local chains
      chains=$($tables -t "$table" -S 2>/dev/null | awk '/^-N KUBE-/ { print $2 }')
      for chain in $chains; do $tables -t "$table" -F "$chain" 2>/dev/null || true; done
      for chain in $chains; do $tables -t "$table" -X "$chain" 2>/dev/null || true; done
    done
  done
  iptables -D FORWARD -s "$POD_CIDR" -j ACCEPT 2>/dev/null || true
  iptables -D FORWARD -d "$POD_CIDR" -j ACCEPT 2>/dev/null || true
  rm -rf "$STATE" /var/lib/kubelet /run/rotunda-cluster /var/lib/cni/networks/rotunda
  local left
  left=$({
    pgrep -af "$BIN/|/run/rotunda-cluster/"
    grep -E " (/var/lib/kubelet|/run/rotunda-cluster)" /proc/mounts
    iptables -S | grep KUBE-
    ip link show cni0 2>/dev/null
  } || true)
  if [ -n "$left" ]; then
    printf 'cluster: down left these behind:\n%s\n' "$left" >&2
    exit 1
  fi
  say "stopped: no process, mount, network link or firewall rule of the cluster is left (the built binaries stay in $CACHE)"
}

status() {
  for name in containerd etcd kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy coredns metrics-server traefik; do
    if [ -f "$STATE/pids/$name" ] && kill -0 "$(cat "$STATE/pids/$name")" 2>/dev/null; then echo "$name: running"; else echo "$name: not running"; fi
  done
  [ -f "$KUBECONFIG_FILE" ] && kc get pods -A -o wide 2>/dev/null || true
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) status ;;
  deploy) deploy ;;
  *) echo "usage: npm run cluster -- up|down|status|deploy" >&2; exit 2 ;;
esac
