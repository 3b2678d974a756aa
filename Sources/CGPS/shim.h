// The part of libgps (gpsd's client library) that WhereAmI uses, with accessors for what
// Swift cannot call directly (variadic gps_send, function-like macros) or what moved
// between libgps API versions.
#ifndef WHEREAMI_CGPS_SHIM_H
#define WHEREAMI_CGPS_SHIM_H

#include <gps.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

// API 9 is gpsd 3.20, API 11 gpsd 3.22 (Debian 12), API 14 gpsd 3.25/3.26. Older ones
// lack fix.altHAE/altMSL; newer ones are unknown to us.
#if GPSD_API_MAJOR_VERSION < 9 || GPSD_API_MAJOR_VERSION > 14
#error "WhereAmI supports libgps API versions 9 to 14 (gpsd 3.20 to 3.26); this libgps has another one"
#endif

/// Starts a JSON watch, of one device when `device` is not NULL.
static inline int whereami_gps_watch(struct gps_data_t *data, const char *device) {
  unsigned int flags = WATCH_ENABLE | WATCH_JSON;
  if (device != NULL) {
    flags |= WATCH_DEVICE;
  }
  return gps_stream(data, flags, (void *)device);
}

/// The fix status (no fix, GPS, DGPS, RTK, ...): in the fix from API 10 on.
static inline int whereami_gps_status(const struct gps_data_t *data) {
#if GPSD_API_MAJOR_VERSION >= 10
  return data->fix.status;
#else
  return data->status;
#endif
}

/// Seconds since the Unix epoch of a libgps time, NaN when unset (all zero).
static inline double whereami_seconds(timespec_t time) {
  if (time.tv_sec == 0 && time.tv_nsec == 0) {
    return NAN;
  }
  return (double)time.tv_sec + (double)time.tv_nsec / 1e9;
}

/// Seconds since the Unix epoch of the fix, NaN when unset.
static inline double whereami_gps_fix_time(const struct gps_data_t *data) {
  return whereami_seconds(data->fix.time);
}

/// The number of devices gpsd reported in its last DEVICES message.
static inline int whereami_gps_device_count(const struct gps_data_t *data) {
  return data->devices.ndevices;
}

/// gpsd's last ERROR message.
static inline const char *whereami_gps_error(const struct gps_data_t *data) {
  return data->error;
}

/// The device that shipped the last report ("" when gpsd did not say).
static inline const char *whereami_gps_device_path(const struct gps_data_t *data) {
  return data->dev.path;
}

/// The satellites gpsd's last SKY message listed.
static inline int whereami_gps_satellite_count(const struct gps_data_t *data) {
  return data->satellites_visible < MAXCHANNELS ? data->satellites_visible : MAXCHANNELS;
}

static inline const struct satellite_t *whereami_gps_satellite(const struct gps_data_t *data, int index) {
  return &data->skyview[index];
}

/// The last GST report (pseudorange error statistics): a member of libgps's union of
/// rarer reports, which the next one of them overwrites.
static inline const struct gst_t *whereami_gps_gst(const struct gps_data_t *data) {
  return &data->gst;
}

/// The GST's UTC time, seconds since the Unix epoch; NaN when unset.
static inline double whereami_gps_gst_time(const struct gps_data_t *data) {
  return whereami_seconds(data->gst.utctime);
}

/// The last ATT report (heading and attitude), in the same union as the GST.
static inline const struct attitude_t *whereami_gps_attitude(const struct gps_data_t *data) {
  return &data->attitude;
}

/// The ATT's measurement time, seconds since the Unix epoch; NaN when unset.
static inline double whereami_gps_attitude_time(const struct gps_data_t *data) {
  return whereami_seconds(data->attitude.mtime);
}

#endif
