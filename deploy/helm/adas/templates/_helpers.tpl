{{/* The image every ADAS container runs. */}}
{{- define "adas.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag }}
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

{{/* The address of the one gRPC endpoint, for the console. */}}
{{- define "adas.server" -}}
{{- if .Values.console.server -}}
{{ .Values.console.server }}
{{- else if eq .Values.gateway.mode "envoy" -}}
http://adas-gateway:50050
{{- else -}}
{{ fail "console.server: name the Gateway's address (gateway.mode is grpcroute)" }}
{{- end -}}
{{- end -}}
