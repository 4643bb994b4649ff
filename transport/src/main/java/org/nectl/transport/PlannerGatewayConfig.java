package org.nectl.transport;

import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * Where and how the planner gateway listens (docs/PROTOCOL.md, "UDP framing").
 *
 * @param bindAddress local UDP address; port 0 picks an ephemeral port.
 * @param maxDatagramLength longest accepted datagram, bytes (trailer included); longer ones are
 *     rejected as OVERSIZED. 1472 fits one Ethernet frame without IP fragmentation.
 * @param datagramsPerDutyCycle datagrams handled per {@code doWork}, bounding one duty cycle.
 * @param queueCapacityBytes capacity of the command queue to the loop, a power of two of at least
 *     8 times the longest command.
 * @param authentication planner keys, allowed sources and time window; its toString shows no key.
 */
public record PlannerGatewayConfig(
    InetSocketAddress bindAddress, int maxDatagramLength, int datagramsPerDutyCycle, int queueCapacityBytes,
    PlannerAuthentication authentication)
{
    /** Default UDP port of the gateway. */
    public static final int DEFAULT_PORT = 47_600;
    /** Default longest datagram, bytes. */
    public static final int DEFAULT_MAX_DATAGRAM_LENGTH = 1472;

    /** Validates the configuration. */
    public PlannerGatewayConfig
    {
        Objects.requireNonNull(bindAddress, "bindAddress");
        Objects.requireNonNull(authentication, "authentication");
        if (maxDatagramLength < Wire.HEADER_LENGTH + PlannerCommandValidator.AUTH_TRAILER_LENGTH || maxDatagramLength > 65_507)
        {
            throw new IllegalArgumentException("maxDatagramLength " + maxDatagramLength + " outside 40..65507");
        }
        if (datagramsPerDutyCycle < 1)
        {
            throw new IllegalArgumentException("datagramsPerDutyCycle must be >= 1, got " + datagramsPerDutyCycle);
        }
        if (Integer.bitCount(queueCapacityBytes) != 1 || queueCapacityBytes < 8 * maxDatagramLength)
        {
            throw new IllegalArgumentException("queueCapacityBytes " + queueCapacityBytes
                + " must be a power of two >= 8 * maxDatagramLength");
        }
    }

    /**
     * @return the defaults on {@code bindAddress}: 1472-byte datagrams, 16 per duty cycle, 64 KiB
     *     queue, authenticated with {@code authentication}.
     */
    public static PlannerGatewayConfig defaults(final InetSocketAddress bindAddress, final PlannerAuthentication authentication)
    {
        return new PlannerGatewayConfig(bindAddress, DEFAULT_MAX_DATAGRAM_LENGTH, 16, 64 * 1024, authentication);
    }

    /** @return a copy authenticated with {@code replacement}. */
    public PlannerGatewayConfig withAuthentication(final PlannerAuthentication replacement)
    {
        return new PlannerGatewayConfig(bindAddress, maxDatagramLength, datagramsPerDutyCycle, queueCapacityBytes, replacement);
    }
}
