{{/* The chart's name, as `app.kubernetes.io/name`. */}}
{{- define "adas.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Every object's name starts with this, so two releases in one namespace
never collide: `<release>-<chart>`, or the release name alone when it
already holds the chart's name (`helm install adas` keeps `adas-…`). */}}
{{- define "adas.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* A component's object name, (dict "ctx" $ "component" "intent"): the
prefix is cut, never the suffix, so components of a long release name stay
distinct and within a DNS label. */}}
{{- define "adas.componentName" -}}
{{- $prefix := include "adas.fullname" .ctx | trunc (int (sub 62 (len .component))) | trimSuffix "-" -}}
{{- printf "%s-%s" $prefix .component -}}
{{- end -}}

{{- define "adas.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* What selectors match, (dict "ctx" $ "component" "intent"): only labels
that never change over a release's life (a selector is immutable). */}}
{{- define "adas.selectorLabels" -}}
app.kubernetes.io/name: {{ include "adas.name" .ctx }}
app.kubernetes.io/instance: {{ .ctx.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{/* Every object's labels, (dict "ctx" $ "component" "intent"). */}}
{{- define "adas.labels" -}}
{{ include "adas.selectorLabels" . }}
app.kubernetes.io/version: {{ .ctx.Chart.AppVersion | quote }}
app.kubernetes.io/part-of: {{ include "adas.name" .ctx }}
app.kubernetes.io/managed-by: {{ .ctx.Release.Service }}
helm.sh/chart: {{ include "adas.chart" .ctx }}
{{- end -}}

{{- define "adas.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "adas.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* The image every ADAS container runs: the chart's appVersion unless a
tag is given, so an install is reproducible. */}}
{{- define "adas.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{/* The release's ServiceAccount, without a token: nothing in a pod calls
the Kubernetes API. */}}
{{- define "adas.podIdentity" -}}
serviceAccountName: {{ include "adas.serviceAccountName" . }}
automountServiceAccountToken: false
{{- end -}}

{{/* The image's user, unprivileged, with the default seccomp profile. */}}
{{- define "adas.podSecurity" -}}
securityContext:
  runAsNonRoot: true
  runAsUser: 10001
  runAsGroup: 10001
  fsGroup: 10001
  seccompProfile: {type: RuntimeDefault}
{{- end -}}

{{/* Nothing written outside mounted volumes, no privilege to gain. */}}
{{- define "adas.containerSecurity" -}}
securityContext:
  allowPrivilegeEscalation: false
  readOnlyRootFilesystem: true
  capabilities: {drop: [ALL]}
{{- end -}}

{{/* The auth Secret the operator creates (values.yaml says how). */}}
{{- define "adas.authSecret" -}}
{{- .Values.auth.secretName | default (include "adas.componentName" (dict "ctx" . "component" "auth")) -}}
{{- end -}}

{{/* The in-chart Redis' password: an existing Secret, or the chart's own. */}}
{{- define "adas.redisSecret" -}}
{{- .Values.redis.auth.existingSecret | default (include "adas.componentName" (dict "ctx" . "component" "redis")) -}}
{{- end -}}

{{- define "adas.redisSecretKey" -}}
{{- if .Values.redis.auth.existingSecret -}}
{{ .Values.redis.auth.existingSecretKey }}
{{- else -}}
redis-password
{{- end -}}
{{- end -}}

{{/* ADAS_REDIS_URL for a service container. The in-chart Redis' password
comes from its Secret and is put into the URL by the kubelet ($(VAR)
expansion), so it is in no ConfigMap and no manifest. */}}
{{- define "adas.redisEnv" -}}
{{- if .Values.redis.enabled -}}
- name: ADAS_REDIS_PASSWORD
  valueFrom:
    secretKeyRef: {name: {{ include "adas.redisSecret" . }}, key: {{ include "adas.redisSecretKey" . }}}
- name: ADAS_REDIS_URL
  value: redis://:$(ADAS_REDIS_PASSWORD)@{{ include "adas.componentName" (dict "ctx" . "component" "redis") }}:6379/
{{- else if .Values.redis.urlSecret.name -}}
- name: ADAS_REDIS_URL
  valueFrom:
    secretKeyRef: {name: {{ .Values.redis.urlSecret.name }}, key: {{ .Values.redis.urlSecret.key }}}
{{- else -}}
# One Redis; for a Redis Cluster, comma-separated seed nodes (any node will do).
- name: ADAS_REDIS_URL
  value: {{ required "redis.url or redis.urlSecret.name: an external Redis when redis.enabled is false" .Values.redis.url | quote }}
{{- end -}}
{{- end -}}

{{/* The address of the one gRPC endpoint, for the console. */}}
{{- define "adas.server" -}}
{{- if .Values.console.server -}}
{{ .Values.console.server }}
{{- else if eq .Values.gateway.mode "envoy" -}}
http://{{ include "adas.componentName" (dict "ctx" . "component" "gateway") }}:50050
{{- else -}}
{{ fail "console.server: name the Gateway's address (gateway.mode is grpcroute)" }}
{{- end -}}
{{- end -}}

{{/* Envoy's configuration: files/envoy.yaml (compose mounts it as-is, its
clusters named and addressed `adas-<service>`) with each cluster's address
and port replaced by the release's headless Service of that service, so the
routes stay one file while the chart's names follow the release. */}}
{{- define "adas.envoyConfig" -}}
{{- $envoy := .Files.Get "files/envoy.yaml" | fromYaml -}}
{{- $services := dict -}}
{{- range .Values.services -}}
{{- $_ := set $services (printf "adas-%s" .name) . -}}
{{- end -}}
{{- range $envoy.static_resources.clusters -}}
{{- $service := index $services .name | default dict -}}
{{- if not $service -}}
{{- fail (printf "files/envoy.yaml: cluster %s is no service in .Values.services" .name) -}}
{{- end -}}
{{- $endpoint := index (index .load_assignment.endpoints 0).lb_endpoints 0 -}}
{{- $socket := $endpoint.endpoint.address.socket_address -}}
{{- $_ := set $socket "address" (include "adas.componentName" (dict "ctx" $ "component" (printf "%s-headless" $service.name))) -}}
{{- $_ := set $socket "port_value" $service.port -}}
{{- end -}}
{{- toYaml $envoy -}}
{{- end -}}

{{/* The five services' pods, as a NetworkPolicyPeer. */}}
{{- define "adas.fromServices" -}}
{{- $services := list -}}
{{- range .Values.services -}}{{- $services = append $services .name -}}{{- end -}}
podSelector:
  matchLabels:
    app.kubernetes.io/name: {{ include "adas.name" . }}
    app.kubernetes.io/instance: {{ .Release.Name }}
  matchExpressions:
    - {key: app.kubernetes.io/component, operator: In, values: [{{ join ", " $services }}]}
{{- end -}}
