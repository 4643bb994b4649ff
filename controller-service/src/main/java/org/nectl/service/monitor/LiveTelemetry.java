package org.nectl.service.monitor;

import org.nectl.transport.TelemetrySample;
import org.nectl.transport.Wire;
import org.nectl.transport.sbe.TelemetryDecoder;

/**
 * The newest received Telemetry sample and what a live display derives from consecutive samples:
 * the rate of the commanded effort, differenced between the two newest samples received (so over
 * the telemetry decimation period, not the tick). Fed every received message, read by
 * {@link TelemetrySeries}.
 *
 * <p>Not thread safe: owned by the polling thread. Not real-time safe (allocates on the first sample).
 */
public final class LiveTelemetry
{
    private TelemetrySample sample;
    private double[] previousTau;
    private double[] tauRate;
    private long previousTimestampNs;
    private long count;

    /**
     * Takes a received message.
     *
     * @param decoder wrapped on a whole Telemetry message.
     * @return false (nothing changed) if its joint count is outside 1..32, differs from the first
     *     sample's, or an enum byte is invalid.
     */
    public boolean update(final TelemetryDecoder decoder)
    {
        if (sample == null)
        {
            final int jointCount = decoder.jointCount();
            if (jointCount < 1 || jointCount > Wire.MAX_JOINTS)
            {
                return false;
            }
            sample = new TelemetrySample(jointCount);
            previousTau = new double[jointCount];
            tauRate = new double[jointCount];
        }
        System.arraycopy(sample.tauCommand(), 0, previousTau, 0, previousTau.length);
        previousTimestampNs = sample.timestampNs();
        if (!sample.decode(decoder))
        {
            return false;
        }
        final long dtNs = sample.timestampNs() - previousTimestampNs;
        for (int k = 0; k < tauRate.length; k++)
        {
            // No rate from a single sample or across a restart of the clock.
            tauRate[k] = count > 0 && dtNs > 0 ? (sample.tauCommand()[k] - previousTau[k]) * 1e9 / dtNs : 0.0;
        }
        count++;
        return true;
    }

    /** @return samples taken so far. */
    public long count()
    {
        return count;
    }

    /** @return the newest sample, null before the first. */
    public TelemetrySample sample()
    {
        return sample;
    }

    /** @return joints of the samples, 0 before the first. */
    public int jointCount()
    {
        return sample == null ? 0 : sample.jointCount();
    }

    /** @return commanded effort rate between the two newest samples, N·m/s or N/s; 0 after the first sample. */
    public double tauRate(final int joint)
    {
        return tauRate[joint];
    }
}
