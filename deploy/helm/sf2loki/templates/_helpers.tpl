{{/* Names */}}
{{- define "sf2loki.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "sf2loki.fullname" -}}
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

{{- define "sf2loki.selectorLabels" -}}
app.kubernetes.io/name: {{ include "sf2loki.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "sf2loki.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{ include "sf2loki.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{- define "sf2loki.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "sf2loki.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "sf2loki.image" -}}
{{- $tag := default .Chart.AppVersion .Values.image.tag -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository $tag -}}
{{- end -}}
{{- end -}}

{{- define "sf2loki.secretName" -}}
{{- default (printf "%s-secrets" (include "sf2loki.fullname" .)) .Values.existingSecret -}}
{{- end -}}

{{/* The effective configuration map: `config`, or the parsed configOverride. */}}
{{- define "sf2loki.configMap" -}}
{{- if .Values.configOverride -}}
{{- fromYaml .Values.configOverride | toYaml -}}
{{- else -}}
{{- $c := deepCopy (.Values.config | default dict) -}}
{{- if .Values.ha.enabled -}}
{{- /* the lease lives in the release namespace; the identity defaults to $HOSTNAME (the pod name) */ -}}
{{- $coord := get $c "coordinate" | default dict -}}
{{- $lease := get $coord "k8s_lease" | default dict -}}
{{- $_ := set $lease "namespace" (get $lease "namespace" | default .Release.Namespace) -}}
{{- $_ := set $coord "k8s_lease" $lease -}}
{{- $_ := set $c "coordinate" $coord -}}
{{- end -}}
{{- toYaml $c -}}
{{- end -}}
{{- end -}}

{{- define "sf2loki.stateStore" -}}
{{- $c := include "sf2loki.configMap" . | fromYaml -}}
{{- (get $c "state" | default dict).store | default "file" -}}
{{- end -}}

{{- define "sf2loki.coordinateType" -}}
{{- $c := include "sf2loki.configMap" . | fromYaml -}}
{{- (get $c "coordinate" | default dict).type | default "noop" -}}
{{- end -}}

{{- define "sf2loki.leaseName" -}}
{{- $c := include "sf2loki.configMap" . | fromYaml -}}
{{- ((get $c "coordinate" | default dict).k8s_lease | default dict).name | default "sf2loki-leader" -}}
{{- end -}}

{{/* The Leases the replicas get and update (DEP-5): the named one and, with coordinate.per_org, one per
org (`<name>-<org>`, HA-27) and one seat per org (`<name>.seat-<i>`, HA-30). */}}
{{- define "sf2loki.leaseNames" -}}
{{- $c := include "sf2loki.configMap" . | fromYaml -}}
{{- $name := include "sf2loki.leaseName" . -}}
- {{ $name | quote }}
{{- if (get $c "coordinate" | default dict).per_org }}
{{- $orgs := get $c "orgs" | default list }}
{{- range $org := $orgs }}
- {{ printf "%s-%s" $name ($org.name | lower | replace "_" "-") | quote }}
{{- end }}
{{- range $i, $org := $orgs }}
- {{ printf "%s.seat-%d" $name $i | quote }}
{{- end }}
{{- end }}
{{- end -}}

{{/* Render-time refusals (DEP-5, DEP-6): each names the value to change. */}}
{{- define "sf2loki.validate" -}}
{{- $store := include "sf2loki.stateStore" . -}}
{{- $coord := include "sf2loki.coordinateType" . -}}
{{- if and (gt (int .Values.replicaCount) 1) (not .Values.ha.enabled) -}}
{{- fail (printf "replicaCount=%d needs ha.enabled=true (DEP-5): without a Kubernetes lease every replica would lead" (int .Values.replicaCount)) -}}
{{- end -}}
{{- if .Values.ha.enabled -}}
{{- if and (not .Values.serviceAccount.create) (not .Values.serviceAccount.name) -}}
{{- fail "ha.enabled needs a ServiceAccount: set serviceAccount.create=true or serviceAccount.name (DEP-5)" -}}
{{- end -}}
{{- if ne $coord "k8s_lease" -}}
{{- fail (printf "ha.enabled needs config.coordinate.type=k8s_lease, not %s (DEP-5)" $coord) -}}
{{- end -}}
{{- if eq $store "file" -}}
{{- fail "ha.enabled needs an object store (config.state.store=s3 or gcs): with state.store=file each replica would keep its own checkpoints and lease, so both would lead (DEP-5)" -}}
{{- end -}}
{{- end -}}
{{- if and (eq $store "file") (not .Values.persistence.enabled) (not .Values.allowEphemeralState) -}}
{{- fail "state.store=file with persistence.enabled=false loses every checkpoint with the pod: enable persistence or set allowEphemeralState=true (DEP-6)" -}}
{{- end -}}
{{- end -}}

{{/* A Kubernetes quantity (Ki/Mi/Gi/Ti, k/M/G/T or plain bytes) as whole bytes. */}}
{{- define "sf2loki.bytes" -}}
{{- $s := toString . -}}
{{- $units := list (list "Ki" 1024) (list "Mi" 1048576) (list "Gi" 1073741824) (list "Ti" 1099511627776) (list "k" 1000) (list "M" 1000000) (list "G" 1000000000) (list "T" 1000000000000) -}}
{{- $bytes := "" -}}
{{- range $units -}}
{{- if and (not $bytes) (hasSuffix (index . 0) $s) -}}
{{- $bytes = mul (trimSuffix (index . 0) $s | int64) (index . 1) | toString -}}
{{- end -}}
{{- end -}}
{{- default ($s | int64 | toString) $bytes -}}
{{- end -}}

{{/* A key of a map, or the default when the key is absent (0 and false are kept). */}}
{{- define "sf2loki.getOr" -}}
{{- $m := index . 0 | default dict -}}
{{- if hasKey $m (index . 1) -}}{{- index $m (index . 1) | toString -}}{{- else -}}{{- index . 2 | toString -}}{{- end -}}
{{- end -}}

{{/*
The DEP-3 heap estimate in MiB for the effective configuration: 3 × queue_max_bytes + Σ over orgs with
Pub/Sub of (bridge_max_bytes + topics × default_num_requested × 1 MiB, `*` = 20 topics)
+ eventlogfile.concurrency × 8 MiB + the largest max_catchup_bytes of an org's big objects + 256 MiB.
*/}}
{{- define "sf2loki.heapEstimateMiB" -}}
{{- $c := include "sf2loki.configMap" . | fromYaml -}}
{{- $mi := 1048576 -}}
{{- $batch := ((get $c "sink" | default dict).loki | default dict).batch | default dict -}}
{{- $total := mul 3 (include "sf2loki.getOr" (list $batch "queue_max_bytes" 268435456) | int64) -}}
{{- $orgSources := list -}}
{{- if get $c "orgs" -}}
{{- range (get $c "orgs") -}}{{- $orgSources = append $orgSources (.sources | default dict) -}}{{- end -}}
{{- else -}}
{{- $orgSources = list (get $c "sources" | default dict) -}}
{{- end -}}
{{- range $src := $orgSources -}}
{{- $ps := $src.pubsub | default dict -}}
{{- if eq (include "sf2loki.getOr" (list $ps "enabled" true)) "true" -}}
{{- $topics := 0 -}}
{{- range ($ps.topics | default list) -}}{{- $topics = add $topics (ternary 20 1 (eq (toString .) "*")) -}}{{- end -}}
{{- $credits := mul $topics (include "sf2loki.getOr" (list $ps "default_num_requested" 100) | int64) $mi -}}
{{- $total = add $total (include "sf2loki.getOr" (list $ps "bridge_max_bytes" 134217728) | int64) $credits -}}
{{- end -}}
{{- $elf := $src.eventlogfile | default dict -}}
{{- if eq (include "sf2loki.getOr" (list $elf "enabled" false)) "true" -}}
{{- $total = add $total (mul (include "sf2loki.getOr" (list $elf "concurrency" 4) | int64) 8 $mi) -}}
{{- end -}}
{{- $objs := $src.eventlog_objects | default dict -}}
{{- if eq (include "sf2loki.getOr" (list $objs "enabled" false)) "true" -}}
{{- $largest := 0 -}}
{{- range ($objs.objects | default list) -}}
{{- if .big_object -}}{{- $largest = max $largest (include "sf2loki.getOr" (list . "max_catchup_bytes" 67108864) | int64) -}}{{- end -}}
{{- end -}}
{{- $total = add $total $largest -}}
{{- end -}}
{{- end -}}
{{- add (div $total $mi) 256 -}}
{{- end -}}
